import { useId } from 'react';
import type { TrafficFilter } from './traffic-store';

interface Props {
  readonly filter: TrafficFilter;
  readonly servers: readonly string[];
  readonly onChange: (filter: TrafficFilter) => void;
  readonly shown: number;
  readonly total: number;
}

export function TrafficFilters({ filter, servers, onChange, shown, total }: Props) {
  const id = useId();
  return (
    <div className="toolbar traffic-filters" role="search" aria-label="Filter messages">
      <label className="traffic-filters__field" htmlFor={`${id}-server`}>
        <span>Server</span>
        <select id={`${id}-server`} className="input" value={filter.server} onChange={(e) => onChange({ ...filter, server: e.target.value })}>
          <option value="">All servers</option>
          {servers.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="traffic-filters__field traffic-filters__grow" htmlFor={`${id}-method`}>
        <span>Method</span>
        <input
          id={`${id}-method`}
          className="input"
          type="search"
          placeholder="e.g. tools/call"
          value={filter.method}
          onChange={(e) => onChange({ ...filter, method: e.target.value })}
        />
      </label>
      <label className="traffic-filters__field" htmlFor={`${id}-direction`}>
        <span>Direction</span>
        <select
          id={`${id}-direction`}
          className="input"
          value={filter.direction}
          onChange={(e) => onChange({ ...filter, direction: e.target.value as TrafficFilter['direction'] })}
        >
          <option value="all">Both</option>
          <option value="out">Sent to servers</option>
          <option value="in">Received from servers</option>
        </select>
      </label>
      <p className="muted traffic-filters__count" aria-live="polite">
        {shown === total ? `${total} message${total === 1 ? '' : 's'}` : `${shown} of ${total} messages`}
      </p>
    </div>
  );
}
