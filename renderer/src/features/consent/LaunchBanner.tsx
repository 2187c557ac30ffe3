import { useSyncExternalStore } from 'react';
import { launchSheet } from './launch-sheet-store';

/** Servers waiting to start while their sheet is put aside: one quiet line across the top, never a modal. */
export function LaunchBanner() {
  const sheet = useSyncExternalStore(launchSheet.subscribe, launchSheet.snapshot);
  if (!sheet.aside || sheet.waiting === 0) return null;
  return (
    <div className="banner banner--update" role="region" aria-label="Servers waiting to start">
      <span>
        {sheet.waiting === 1 ? 'A server is' : `${sheet.waiting} servers are`} waiting for your permission to start.
      </span>
      <div className="banner__actions">
        <button type="button" className="button button--small" onClick={() => launchSheet.open()}>
          Review
        </button>
      </div>
    </div>
  );
}
