import { useSyncExternalStore } from 'react';
import type { StatusSource } from '../bridge/status';

/** Says so when the page cannot reach the Host, instead of every page failing on its own. */
export function ConnectionBanner({ source }: { readonly source: StatusSource }) {
  const status = useSyncExternalStore(
    (onChange) => source.onStatus(onChange),
    () => source.status(),
  );
  if (status.state === 'open') return null;
  if (status.state === 'connecting') {
    return (
      <div className="banner" role="status">
        Connecting to Harbor…
      </div>
    );
  }
  return (
    <div className="banner banner--error" role="alert">
      {status.reason}
    </div>
  );
}
