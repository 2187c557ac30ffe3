import { useState } from 'react';
import type { HarborErrorData, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';

type Action = 'restart' | 'stop';

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
    const result = await (action === 'stop' ? api.servers.stop({ name: server.name }) : api.servers.restart({ name: server.name }));
    setBusy(undefined);
    if (!result.ok) setError(asErrorData(result.error));
  };

  const startLabel = running ? 'Restart' : 'Start';
  return (
    <div className="actions">
      <button
        type="button"
        className="button"
        aria-label={`${startLabel} ${server.name}`}
        disabled={busy !== undefined}
        onClick={() => void run('restart')}
      >
        {busy === 'restart' ? `${startLabel}ing…` : startLabel}
      </button>
      {running ? (
        <button
          type="button"
          className="button"
          aria-label={`Stop ${server.name}`}
          disabled={busy === 'stop'}
          onClick={() => void run('stop')}
        >
          {busy === 'stop' ? 'Stopping…' : 'Stop'}
        </button>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}
