import { Play, RotateCw, ShieldCheck, Square } from 'lucide-react';
import { useState } from 'react';
import type { ErrorCode, HarborErrorData, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';

type Action = 'start' | 'restart' | 'stop' | 'allowLaunch';

/** Failures a start leaves in the server's state, where its page explains them. */
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

/** Runs one action on a server; a failure that its state will not explain is kept to show. */
export function useServerAction(server: ServerSummary) {
  const api = useHarbor();
  const [busy, setBusy] = useState<Action | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
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
  return { busy, error, run };
}

/** Start / Restart / Stop one server. Its state badge follows the Host's events. */
export function ServerRunButtons({ server }: { readonly server: ServerSummary }) {
  const { busy, error, run } = useServerAction(server);
  if (!server.enabled) return null;
  const kind = server.state.kind;
  const running = kind === 'starting' || kind === 'ready' || kind === 'restarting';
  const startLabel = running ? 'Restart' : 'Start';
  const StartIcon = running ? RotateCw : Play;
  return (
    <>
      <button type="button" className="button button--with-icon" aria-label={`${startLabel} ${server.name}`} disabled={busy !== undefined} onClick={() => void run(running ? 'restart' : 'start')}>
        <StartIcon aria-hidden="true" size={15} />
        {busy === 'start' || busy === 'restart' ? PENDING[busy] : startLabel}
      </button>
      {running ? (
        <button type="button" className="button button--with-icon" aria-label={`Stop ${server.name}`} disabled={busy === 'stop'} onClick={() => void run('stop')}>
          <Square aria-hidden="true" size={13} />
          {busy === 'stop' ? PENDING.stop : 'Stop'}
        </button>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}

/**
 * "Allow launch" (a local program) or "Allow connection" (a remote address): the person approves
 * what the server runs or reaches, exactly as configured now, and it starts.
 */
export function AllowLaunchButton({ server }: { readonly server: ServerSummary }) {
  const { busy, error, run } = useServerAction(server);
  const label = server.transport === 'http' ? 'Allow connection' : 'Allow launch';
  return (
    <>
      <button type="button" className="button button--primary button--with-icon" aria-label={`${label} of ${server.name}`} disabled={busy !== undefined} onClick={() => void run('allowLaunch')}>
        <ShieldCheck aria-hidden="true" size={15} />
        {busy ? PENDING.allowLaunch : label}
      </button>
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}
