import { useState } from 'react';
import { useHarbor } from '../../app/services';
import { useUpdateStatus } from './use-update-status';
import './updates.css';

/**
 * Across the top of every page once an update has downloaded: the person picks when to restart
 * (servers stop first). "Later" hides it for this window; Settings → Updates still offers it.
 */
export function UpdateBanner() {
  const api = useHarbor();
  const [status] = useUpdateStatus();
  const [dismissed, setDismissed] = useState<string | undefined>();
  const [failed, setFailed] = useState(false);
  if (status?.state !== 'ready' || dismissed === status.version) return null;
  const restart = async () => {
    const result = await api.app.installUpdate({});
    setFailed(!result.ok || !result.value.restarting);
  };
  return (
    <div className="banner banner--update" role="status">
      <span>
        Harbor {status.version ?? 'update'} is ready to install.
        {failed ? ' Harbor could not restart into it: try again, or quit and start Harbor yourself.' : ''}
      </span>
      <span className="banner__actions">
        <button type="button" className="button button--small button--primary" onClick={() => void restart()}>
          Restart now
        </button>
        <button type="button" className="button button--small" onClick={() => setDismissed(status.version)}>
          Later
        </button>
      </span>
    </div>
  );
}
