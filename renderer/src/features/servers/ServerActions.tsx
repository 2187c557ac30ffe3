import { useState } from 'react';
import type { ErrorCode, HarborErrorData, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';

type Action = 'start' | 'restart' | 'stop' | 'allowLaunch';

/** Failures a start leaves in the server's state, where the card explains them. */
const STATE_CODES = new Set<ErrorCode>([
  'SPAWN_FAILED',
  'SANDBOX_UNAVAILABLE',
  'CONNECT_FAILED',
  'CONNECTION_CLOSED',
  'PROTOCOL_ERROR',
  'TIMEOUT',
  'CONSENT_DENIED',
  'CONSENT_REQUIRED',
  'SECRET_MISSING',
  'KEYCHAIN_UNAVAILABLE',
  'AUTH_REQUIRED',
  'AUTH_FAILED',
  'CONFIG_INVALID',
]);

const PENDING: Record<Action, string> = { start: 'Starting…', restart: 'Restarting…', stop: 'Stopping…', allowLaunch: 'Starting…' };

interface Props {
  readonly server: ServerSummary;
  /** Offer "Allow launch" (the last start was refused for want of the person's approval). */
  readonly offerLaunch?: boolean;
}

/** Start / restart / stop one server, or allow its launch. The badge follows the Host's state events. */
export function ServerActions({ server, offerLaunch = false }: Props) {
  const api = useHarbor();
  const [busy, setBusy] = useState<Action | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const kind = server.state.kind;
  const running = kind === 'starting' || kind === 'ready' || kind === 'restarting';

  const run = async (action: Action) => {
    setBusy(action);
    setError(undefined);
    const name = { name: server.name };
    // "Start" and "Restart" are the same command: the Host (re)connects the server either way.
    const result =
      action === 'stop' ? await api.servers.stop(name) : action === 'allowLaunch' ? await api.servers.approveLaunch(name) : await api.servers.restart(name);
    setBusy(undefined);
    // A failed start shows as the server's error state (with its hint); say here only what it does not.
    if (!result.ok && (action === 'stop' || !STATE_CODES.has(result.error.code))) setError(asErrorData(result.error));
  };

  if (!server.enabled) return null;
  const startAction: Action = running ? 'restart' : 'start';
  const startLabel = running ? 'Restart' : 'Start';
  // A remote server is not launched: the person allows Harbor to reach its address.
  const allowLabel = server.transport === 'http' ? 'Allow connection' : 'Allow launch';
  return (
    <>
      {offerLaunch ? (
        <button
          type="button"
          className="button button--primary"
          aria-label={`${allowLabel} of ${server.name}`}
          disabled={busy !== undefined}
          onClick={() => void run('allowLaunch')}
        >
          {busy === 'allowLaunch' ? PENDING.allowLaunch : allowLabel}
        </button>
      ) : null}
      <button type="button" className="button" aria-label={`${startLabel} ${server.name}`} disabled={busy !== undefined} onClick={() => void run(startAction)}>
        {busy === 'start' || busy === 'restart' ? PENDING[busy] : startLabel}
      </button>
      {running ? (
        <button type="button" className="button" aria-label={`Stop ${server.name}`} disabled={busy === 'stop'} onClick={() => void run('stop')}>
          {busy === 'stop' ? PENDING.stop : 'Stop'}
        </button>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}
