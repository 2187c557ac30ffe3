import { Download, Pause, Play, Trash2 } from 'lucide-react';

interface Props {
  readonly paused: boolean;
  /** Messages that arrived while paused, not shown yet. */
  readonly waiting: number;
  readonly onPause: (paused: boolean) => void;
  readonly onClear: () => void;
  readonly onExport: () => void;
  readonly canExport: boolean;
}

/** Pause the list (messages keep arriving behind it), clear it, export what the filters show. */
export function TrafficActions({ paused, waiting, onPause, onClear, onExport, canExport }: Props) {
  return (
    <div className="toolbar traffic-actions" role="toolbar" aria-label="Message actions">
      <button type="button" className="button button--small" aria-pressed={paused} onClick={() => onPause(!paused)} title={paused ? 'Show new messages again' : 'Stop the list from moving'}>
        {paused ? <Play size={14} aria-hidden="true" /> : <Pause size={14} aria-hidden="true" />}
        {paused ? 'Resume' : 'Pause'}
      </button>
      {paused && waiting > 0 ? (
        <span className="muted" role="status">
          {waiting} new message{waiting === 1 ? '' : 's'} waiting
        </span>
      ) : null}
      <button type="button" className="button button--small" onClick={onClear} title="Empty the list; new messages still show">
        <Trash2 size={14} aria-hidden="true" />
        Clear
      </button>
      <button type="button" className="button button--small" onClick={onExport} disabled={!canExport} title="Download the messages shown, one JSON object a line">
        <Download size={14} aria-hidden="true" />
        Export
      </button>
    </div>
  );
}
