import { memo, useMemo } from 'react';
import { CopyButton } from '../../ui/CopyButton';
import { formatLatency } from './traffic-pairing';
import { prettyMessage, type TrafficRowData } from './traffic-store';
import { formatTime } from '../../lib/time-format';

interface Props {
  readonly row: TrafficRowData;
  readonly open: boolean;
  /** Opens or closes the row with this sequence number. */
  readonly onToggle: (seq: number) => void;
}

/**
 * One message: when, which server, which way, what, how long its pair took; opened, its full JSON
 * (as text) and Copy. A row renders again only when it changes (its pair arrives, it is opened):
 * a log taking hundreds of messages a second would otherwise format every row in view each time.
 */
export const TrafficRow = memo(function TrafficRow({ row, open, onToggle }: Props) {
  const pretty = useMemo(() => prettyMessage(row.text), [row.text]);
  const time = new Date(row.at);
  const arrow = row.direction === 'out' ? '→' : '←';
  const way = row.direction === 'out' ? `to ${row.server}` : `from ${row.server}`;
  return (
    <div className={`traffic-row${row.isError ? ' traffic-row--error' : ''}`}>
      <div className="traffic-row__line">
        <button type="button" className="traffic-row__toggle" aria-expanded={open} onClick={() => onToggle(row.seq)}>
          <time dateTime={time.toISOString()}>{formatTime(time)}</time>
          <span className={`traffic-row__dir traffic-row__dir--${row.direction}`} aria-hidden="true">
            {arrow}
          </span>
          <span className="visually-hidden">{row.direction === 'out' ? 'Sent' : 'Received'} </span>
          <span className="traffic-row__server">{row.server}</span>
          <span className="traffic-row__method">{row.label}</span>
          {row.id !== undefined ? <span className="traffic-row__id">#{String(row.id)}</span> : null}
          {row.latencyMs !== undefined ? (
            <span className="traffic-row__latency" title={row.method ? 'Time until the response' : 'Time since the request'}>
              {formatLatency(row.latencyMs)}
            </span>
          ) : null}
          {row.isError ? <span className="badge badge--error">error</span> : null}
          <span className="visually-hidden"> {way}</span>
        </button>
        <CopyButton text={pretty} label="Copy" className="button button--small traffic-row__copy" />
      </div>
      {open ? <pre className="traffic-row__body">{pretty}</pre> : null}
    </div>
  );
});
