import { useCallback, useState } from 'react';
import type { HarborLogLevel } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { useResult } from '../../lib/use-result';
import { visibleText } from '../../lib/visible-text';
import { ErrorMessage } from '../../ui/ErrorMessage';

const LEVELS: readonly HarborLogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * Harbor's own log (DATA/logs/harbor.log, what `harbor logs` prints): failures no caller waited
 * for — a server that crashed or restarted, a refresh that failed, a sandbox refusal — filterable
 * by server and lowest level, newest first.
 */
export function HarborLog() {
  const api = useHarbor();
  const [server, setServer] = useState('');
  const [level, setLevel] = useState<HarborLogLevel>('info');
  const load = useCallback(() => api.harborLog.read({ level, ...(server ? { server } : {}) }), [api, server, level]);
  const [log, reload] = useResult(load);
  const servers = useCallback(() => api.servers.list({}), [api]);
  const [list] = useResult(servers);
  const entries = log.status === 'ready' ? [...log.value.entries].reverse() : [];
  return (
    <section className="panel harbor-log" aria-labelledby="harbor-log-title">
      <h2 id="harbor-log-title">Harbor&apos;s log</h2>
      <div className="harbor-log__filters" role="group" aria-label="Filter Harbor's log">
        <label>
          Server{' '}
          <select value={server} onChange={(e) => setServer(e.target.value)} aria-label="Log server">
            <option value="">All servers</option>
            {(list.status === 'ready' ? list.value : []).map((s) => (
              <option key={s.name} value={s.name}>
                {visibleText(s.name)}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Level{' '}
          <select value={level} onChange={(e) => setLevel(e.target.value as HarborLogLevel)} aria-label="Lowest log level">
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {l} and above
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="button" className="button" onClick={reload}>
          Refresh
        </button>
      </div>
      {log.status === 'error' ? <ErrorMessage error={log.error} /> : null}
      {log.status === 'ready' && entries.length === 0 ? <p className="muted">Nothing logged{server ? ` about ${visibleText(server)}` : ''} at this level.</p> : null}
      {entries.length > 0 ? (
        <ol className="activity" aria-label="Harbor's log entries">
          {entries.slice(0, 200).map((entry, index) => (
            <li key={`${entry.time}-${index}`} className="activity__item" data-level={entry.level}>
              <time dateTime={entry.time}>{entry.time.replace('T', ' ').slice(0, 19)}</time>
              <span>
                <strong>{entry.level}</strong> {entry.server ? <strong>{visibleText(entry.server)}</strong> : null} {visibleText(entry.message)}
                {entry.code ? ` (${entry.code})` : ''}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      {log.status === 'ready' ? (
        <p className="muted">
          The whole log is in <code>{visibleText(log.value.path)}</code> (also <code>harbor logs</code>).
          {log.value.unreadable > 0 ? ` ${log.value.unreadable} unreadable lines skipped.` : ''}
        </p>
      ) : null}
    </section>
  );
}
