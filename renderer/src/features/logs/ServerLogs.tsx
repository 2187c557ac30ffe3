import { useEffect, useId, useMemo, useState } from 'react';
import type { HarborErrorData, LogLevel, ServerLogEntry, ServerLogsView } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { visibleText } from '../../lib/visible-text';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { LEVELS, filterLogs, logText } from './log-filter';
import './logs.css';
import { formatTime } from '../../lib/time-format';

/** Entries kept on screen; the Host keeps its own bounded list. */
const SHOWN = 500;

/**
 * One server's log: the messages it sent (notifications/message), filtered by level and searched
 * by text, the level the person asks it to send, and its stderr beside them.
 */
export function ServerLogs({ server }: { readonly server: string }) {
  const api = useHarbor();
  const id = useId();
  const [view, setView] = useState<ServerLogsView | undefined>();
  const [entries, setEntries] = useState<readonly ServerLogEntry[]>([]);
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [atLeast, setAtLeast] = useState<LogLevel | undefined>();
  const [search, setSearch] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    const off = api.on.servers.log((entry) => {
      if (entry.server === server) setEntries((all) => [...all, entry].slice(-SHOWN));
    });
    void api.logs.list({ server }).then((result) => {
      if (!live) return;
      if (!result.ok) return setError(asErrorData(result.error));
      setView(result.value);
      // Messages that arrived while the list was loading are in it or come after it: keep each once.
      setEntries((arrived) => [...result.value.entries, ...arrived.filter((e) => !result.value.entries.some((k) => k.seq === e.seq))].slice(-SHOWN));
    });
    return () => {
      live = false;
      off();
    };
  }, [api, server]);

  const shown = useMemo(() => filterLogs(entries, { ...(atLeast ? { atLeast } : {}), search }), [entries, atLeast, search]);

  const setLevel = async (level: LogLevel | null) => {
    setSaving(true);
    setError(undefined);
    const result = await api.logs.setLevel({ server, level });
    setSaving(false);
    if (result.ok) setView(result.value);
    else setError(asErrorData(result.error));
  };

  const refreshStderr = async () => {
    const result = await api.logs.list({ server });
    if (result.ok) setView(result.value);
  };

  return (
    <section className="server-logs" aria-label={`Logs of ${server}`}>
      <div className="server-logs__controls">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-level`}>
            Level the server sends
          </label>
          <select
            id={`${id}-level`}
            className="input"
            value={view?.level ?? ''}
            disabled={saving || !view}
            onChange={(e) => void setLevel(e.target.value === '' ? null : (e.target.value as LogLevel))}
          >
            <option value="">{view?.era === 'modern' ? 'None (send no log messages)' : "The server's default"}</option>
            {LEVELS.map((level) => (
              <option key={level} value={level}>
                {level} and more severe
              </option>
            ))}
          </select>
          {view?.supported === false ? <p className="field__hint">This server does not offer log messages.</p> : null}
          {view?.era === 'modern' ? <p className="field__hint">A server of protocol 2026-07-28 logs only during requests Harbor makes with a level set.</p> : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-show`}>
            Show
          </label>
          <select id={`${id}-show`} className="input" value={atLeast ?? ''} onChange={(e) => setAtLeast(e.target.value === '' ? undefined : (e.target.value as LogLevel))}>
            <option value="">Every level</option>
            {LEVELS.map((level) => (
              <option key={level} value={level}>
                {level} and more severe
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-search`}>
            Search
          </label>
          <input id={`${id}-search`} className="input" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
      </div>
      {error ? <ErrorMessage error={error} /> : null}
      {entries.length === 0 ? (
        <p className="muted">No log messages yet.</p>
      ) : shown.length === 0 ? (
        <p className="muted">No log message matches.</p>
      ) : (
        <ol className="server-logs__list" aria-label={`Log messages of ${server}`}>
          {shown.map((entry) => (
            <li key={entry.seq} className={`server-logs__entry server-logs__entry--${entry.level}`}>
              <time dateTime={new Date(entry.at).toISOString()}>{formatTime(entry.at)}</time>
              <span className="badge server-logs__level">{entry.level}</span>
              {entry.logger ? <span className="server-logs__logger">{visibleText(entry.logger)}</span> : null}
              <span className="server-logs__data plain-text">{visibleText(logText(entry.data), { multiline: true })}</span>
            </li>
          ))}
        </ol>
      )}
      {/* Shown with the log messages, never folded away: it is where most servers say what is wrong. */}
      <section className="server-logs__stderr" aria-labelledby={`${id}-stderr`}>
        <h3 id={`${id}-stderr`} className="server-logs__title" aria-label={`stderr of ${server}`}>
          Its stderr (last lines)
        </h3>
        {view?.stderrTail ? <pre tabIndex={0}>{visibleText(view.stderrTail, { multiline: true })}</pre> : <p className="muted">{view ? 'Nothing on stderr.' : 'Loading…'}</p>}
        <button type="button" className="button button--small" onClick={() => void refreshStderr()}>
          Refresh
        </button>
      </section>
    </section>
  );
}
