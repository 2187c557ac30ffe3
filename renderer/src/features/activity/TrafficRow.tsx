import { memo, useMemo } from 'react';
import { CopyButton } from '../../ui/CopyButton';
import { formatLatency, type ShownTrafficRow } from './traffic-pairing';
import { prettyMessage } from './traffic-store';
import { formatTime } from '../../lib/time-format';

interface Props {
  readonly row: ShownTrafficRow;
  readonly open: boolean;
  /** Opens or closes the row with this sequence number. */
  readonly onToggle: (seq: number) => void;
}

/**
 * One row: a request with its response (how long it took, whether it failed), or a single message
 * (a notification, a response whose request is not shown). Opened, each message's full JSON (as
 * text) with its Copy; a long one scrolls in a box the keyboard can reach. A row renders again only
 * when it changes (its response arrives, it is opened): a log taking hundreds of messages a second
 * would otherwise format every row in view each time.
 */
export const TrafficRow = memo(function TrafficRow({ row, open, onToggle }: Props) {
  const time = new Date(row.at);
  const arrow = row.response ? '⇄' : row.direction === 'out' ? '→' : '←';
  const way = row.direction === 'out' ? `to ${row.server}` : `from ${row.server}`;
  const failed = row.isError || row.response?.isError === true;
  return (
    <div className={`traffic-row${failed ? ' traffic-row--error' : ''}`}>
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
          ) : row.method && row.id !== undefined ? (
            <span className="traffic-row__latency muted">waiting</span>
          ) : null}
          {failed ? <span className="badge badge--error">error</span> : null}
          <span className="visually-hidden">
            {' '}
            {way}
            {row.response ? ', with its response' : ''}
          </span>
        </button>
        <CopyButton text={row.response ? `${row.text}\n${row.response.text}` : row.text} label="Copy" className="button button--small traffic-row__copy" />
      </div>
      {open ? (
        <>
          <MessageBody text={row.text} label={row.response ? 'Request' : 'Message'} />
          {row.response ? <MessageBody text={row.response.text} label="Response" /> : null}
        </>
      ) : null}
    </div>
  );
});

/** One message's JSON, pretty-printed, in a labelled box that takes focus (it may scroll) and its Copy. */
function MessageBody({ text, label }: { readonly text: string; readonly label: string }) {
  const pretty = useMemo(() => prettyMessage(text), [text]);
  return (
    <div className="traffic-row__part">
      <div className="traffic-row__part-head">
        <span className="traffic-row__part-label">{label}</span>
        <CopyButton text={pretty} label={`Copy ${label.toLowerCase()}`} className="button button--small" />
      </div>
      {/* Focusable: a long message scrolls inside its box, and the keyboard must reach it (axe scrollable-region-focusable). */}
      <pre className="traffic-row__body" role="region" aria-label={label} tabIndex={0}>
        {pretty}
      </pre>
    </div>
  );
}
