import { useId, useState } from 'react';
import type { HarborErrorData, UpdateStatus } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useUpdateStatus } from './use-update-status';
import './updates.css';

/** One sentence for each state, naming the versions involved. */
export function describeUpdate(status: UpdateStatus): string {
  const next = status.version ? `Harbor ${status.version}` : 'A new version';
  switch (status.state) {
    case 'unsupported':
      return status.message ?? 'Updates are not available here.';
    case 'idle':
      return `You have Harbor ${status.currentVersion}.`;
    case 'checking':
      return 'Checking for updates…';
    case 'up-to-date':
      return `Harbor ${status.currentVersion} is the newest version.`;
    case 'available':
      return `${next} is available.`;
    case 'downloading':
      return `Downloading ${next}${status.percent !== undefined ? ` (${Math.floor(status.percent)}%)` : ''}…`;
    case 'ready':
      return `${next} is ready. Restarting Harbor installs it; your servers are stopped first.`;
    case 'error':
      return `Could not update: ${status.message ?? 'unknown error'}.`;
  }
}

/** Settings → Updates: where Harbor stands, check now, the automatic setting, restart into a ready update. */
export function UpdatesPanel() {
  const api = useHarbor();
  const id = useId();
  const [status, setStatus] = useUpdateStatus();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();
  if (!status) return null;

  const run = async (action: () => ReturnType<typeof api.app.checkForUpdates>) => {
    setBusy(true);
    setError(undefined);
    const result = await action();
    setBusy(false);
    if (result.ok) setStatus(result.value);
    else setError(asErrorData(result.error));
  };
  const restart = async () => {
    setBusy(true);
    setError(undefined);
    const result = await api.app.installUpdate({});
    setBusy(false);
    if (!result.ok) setError(asErrorData(result.error));
    else if (!result.value.restarting) setError({ code: 'INTERNAL', message: 'Harbor could not restart into the update. Try again, or quit and start Harbor yourself.' });
  };

  const supported = status.state !== 'unsupported';
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Updates</h2>
      <p role="status" className="updates__status">
        {describeUpdate(status)}
      </p>
      {status.state === 'downloading' && status.percent !== undefined ? (
        <progress className="updates__progress" max={100} value={status.percent} aria-label="Download progress" />
      ) : null}
      {supported ? (
        <>
          <label className="schema-form__check">
            <input
              type="checkbox"
              checked={status.autoUpdate}
              disabled={busy}
              onChange={(e) => void run(() => api.app.setAutoUpdate({ enabled: e.target.checked }))}
            />
            <span>Check for updates automatically (and download them)</span>
          </label>
          <div className="actions">
            {status.state === 'ready' ? (
              <button type="button" className="button button--primary" disabled={busy} onClick={() => void restart()}>
                Restart to update
              </button>
            ) : (
              <button type="button" className="button" disabled={busy || status.state === 'checking' || status.state === 'downloading'} onClick={() => void run(() => api.app.checkForUpdates({}))}>
                Check now
              </button>
            )}
          </div>
        </>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </section>
  );
}
