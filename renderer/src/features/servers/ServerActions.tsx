import { useState } from 'react';
import type { HarborErrorData, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';

type Action = 'start' | 'restart' | 'stop';

const PENDING: Record<Action, string> = { start: 'Starting…', restart: 'Restarting…', stop: 'Stopping…' };

/** Start / restart / stop one server. The card's badge follows the Host's state events. */
export function ServerActions({ server }: { readonly server: ServerSummary }) {
  const api = useHarbor();
  const [busy, setBusy] = useState<Action | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const kind = server.state.kind;
  const running = kind === 'starting' || kind === 'ready' || kind === 'restarting';

  const run = async (action: Action) => {
    setBusy(action);
    setError(undefined);
    // "Start" and "Restart" are the same command: the Host (re)connects the server either way.
    const result = await (action === 'stop' ? api.servers.stop({ name: server.name }) : api.servers.restart({ name: server.name }));
    setBusy(undefined);
    if (!result.ok) setError(asErrorData(result.error));
  };

  const startAction: Action = running ? 'restart' : 'start';
  const startLabel = running ? 'Restart' : 'Start';
  return (
    <div className="actions">
      <button
        type="button"
        className="button"
        aria-label={`${startLabel} ${server.name}`}
        disabled={busy !== undefined}
        onClick={() => void run(startAction)}
      >
        {busy === 'start' || busy === 'restart' ? PENDING[busy] : startLabel}
      </button>
      {running ? (
        <button
          type="button"
          className="button"
          aria-label={`Stop ${server.name}`}
          disabled={busy === 'stop'}
          onClick={() => void run('stop')}
        >
          {busy === 'stop' ? PENDING.stop : 'Stop'}
        </button>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}
