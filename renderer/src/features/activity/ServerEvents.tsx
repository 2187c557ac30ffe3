import { useSyncExternalStore } from 'react';
import { useActivity } from '../../app/services';
import { formatTime } from '../../lib/time-format';

/** Server starts, stops, errors, catalog changes, log messages and sampling; the Host keeps recent changes and failures across reloads. */
export function ServerEvents() {
  const log = useActivity();
  const entries = useSyncExternalStore(log.subscribe, log.snapshot);
  return (
    <section className="panel server-events" aria-labelledby="server-events-title">
      <h2 id="server-events-title">Server events</h2>
      {entries.length === 0 ? (
        <p className="muted">Nothing yet: starts, stops, catalog changes, log messages and sampling requests show up here.</p>
      ) : (
        <ol className="activity" aria-label="Server events" tabIndex={0}>
          {entries.slice(0, 50).map((entry) => (
            <li key={entry.id} className="activity__item">
              <time dateTime={entry.at.toISOString()}>{formatTime(entry.at)}</time>
              <span>
                <strong>{entry.server}</strong> {entry.text}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
