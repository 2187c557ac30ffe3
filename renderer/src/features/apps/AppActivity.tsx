import './apps.css';
import { useEffect, useState } from 'react';
import type { AppActivityEntry } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { visibleText } from '../../lib/visible-text';
import { formatTime } from '../../lib/time-format';

/** Newest first, at most this many on the page (the Host keeps more). */
const SHOWN = 200;

const OUTCOME: Record<AppActivityEntry['outcome'], string> = {
  allowed: 'allowed',
  refused: 'refused',
  failed: 'failed',
  info: '',
};

/**
 * The apps' audit trail: every app opened, each domain its CSP allows or refuses, each permission
 * decision, and every request an app made through its bridge with how it ended.
 */
export function AppActivity() {
  const api = useHarbor();
  const [entries, setEntries] = useState<readonly AppActivityEntry[]>([]);
  useEffect(() => {
    let current = true;
    const seen = new Set<number>();
    const add = (incoming: readonly AppActivityEntry[]) =>
      setEntries((list) => {
        const fresh = incoming.filter((e) => !seen.has(e.seq));
        for (const e of fresh) seen.add(e.seq);
        return fresh.length === 0 ? list : [...fresh.reverse(), ...list].slice(0, SHOWN);
      });
    const off = api.on.apps.activity((entry) => add([entry]));
    void api.apps.activity({}).then((result) => {
      if (current && result.ok) add(result.value.slice(-SHOWN));
    });
    return () => {
      current = false;
      off();
    };
  }, [api]);

  return (
    <section className="panel server-events" aria-labelledby="app-activity-title">
      <h2 id="app-activity-title">Apps</h2>
      {entries.length === 0 ? (
        <p className="muted">Nothing yet: when a tool’s app is shown, what it is allowed and everything it asks shows up here.</p>
      ) : (
        <ol className="activity" aria-label="App activity" tabIndex={0}>
          {entries.map((entry) => (
            <li key={entry.seq} className="activity__item">
              <time dateTime={new Date(entry.at).toISOString()}>{formatTime(entry.at)}</time>
              <span>
                <strong>{entry.server}</strong> <code>{entry.method}</code> {visibleText(entry.detail)}{' '}
                {OUTCOME[entry.outcome] ? <span className={`app-activity__outcome--${entry.outcome}`}>{OUTCOME[entry.outcome]}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
