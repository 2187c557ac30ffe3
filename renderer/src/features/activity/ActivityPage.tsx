import { useCallback, useDeferredValue, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useHarbor } from '../../app/services';
import { usePersisted } from '../../lib/persisted';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { VirtualList } from '../../ui/VirtualList';
import { AppActivity } from '../apps/AppActivity';
import { offerDownload } from '../chat/download';
import { HarborLog } from './HarborLog';
import { ServerEvents } from './ServerEvents';
import { TrafficActions } from './TrafficActions';
import { TrafficFilters } from './TrafficFilters';
import { foldPairs } from './traffic-pairing';
import { TrafficRow } from './TrafficRow';
import { trafficAsJsonLines } from './traffic-export';
import { NO_FILTER, TrafficStore, filterTraffic, type TrafficFilter, type TrafficRowData } from './traffic-store';
import './activity.css';

/** A closed row's height in px, as activity.css makes it. */
const ROW_HEIGHT = 41;

/** A row's key for the list: its sequence number, the same for as long as the row lives. */
const rowKey = (row: TrafficRowData) => String(row.seq);

/** Every JSON-RPC message between Harbor and its servers (secrets masked), live, paired, filterable. */
export function ActivityPage() {
  const api = useHarbor();
  const store = useMemo(() => new TrafficStore(api), [api]);
  useEffect(() => store.start(), [store]);
  const state = useSyncExternalStore(store.subscribe, store.snapshot);
  const [filter, setFilter] = usePersisted<TrafficFilter>('activity.filter', NO_FILTER);
  // While paused, the rows as they were: the store keeps following behind them.
  const [frozen, setFrozen] = useState<readonly TrafficRowData[] | undefined>(undefined);
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  // Messages can arrive by the hundred a second (the store tells of them once a frame): the list
  // follows at a lower priority than input, and messages that arrive while it renders are taken
  // together in one render.
  const live = useDeferredValue(state.rows);
  const all = frozen ?? live;
  const rows = useMemo(() => filterTraffic(all, { ...NO_FILTER, ...filter }), [all, filter]);
  // A request and its response are one row (the export keeps each message).
  const shown = useMemo(() => foldPairs(rows), [rows]);
  const lastShown = all.at(-1)?.seq ?? 0;
  // The rows are in sequence order: the ones waiting are counted from the end.
  const waiting = frozen ? state.rows.length - 1 - state.rows.findLastIndex((r) => r.seq <= lastShown) : 0;
  // The same function for the page's life, so the rows already shown need not render again.
  const toggle = useCallback(
    (seq: number) =>
      setOpen((current) => {
        const next = new Set(current);
        if (!next.delete(seq)) next.add(seq);
        return next;
      }),
    [],
  );
  const clear = () => {
    store.clear();
    setOpen(new Set());
    if (frozen) setFrozen([]);
  };
  const exportShown = () => offerDownload(`harbor-activity-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`, 'application/x-ndjson', trafficAsJsonLines(rows));

  return (
    <>
      <PageHeader title="Activity">Every message between Harbor and your servers, as it happens: each request with its response. Secrets are masked.</PageHeader>
      <TrafficFilters filter={filter} servers={state.servers} onChange={setFilter} shown={rows.length} total={all.length} />
      <TrafficActions
        paused={frozen !== undefined}
        waiting={waiting}
        onPause={(pause) => setFrozen(pause ? state.rows : undefined)}
        onClear={clear}
        onExport={exportShown}
        canExport={rows.length > 0}
      />
      {state.status === 'loading' ? <Loading label="Loading messages…" /> : null}
      {state.status === 'error' ? <ErrorMessage error={state.error} /> : null}
      {state.status === 'ready' && all.length === 0 ? (
        <EmptyState title="No messages yet">
          <p>When a server starts, or you run a tool, read a resource or chat, its JSON-RPC messages show up here.</p>
        </EmptyState>
      ) : null}
      {state.status === 'ready' && all.length > 0 && rows.length === 0 ? (
        <EmptyState title="No message matches these filters">
          <button type="button" className="button" onClick={() => setFilter(NO_FILTER)}>
            Clear filters
          </button>
        </EmptyState>
      ) : null}
      {shown.length > 0 ? (
        <VirtualList
          items={shown}
          label="Messages"
          className="traffic"
          estimateSize={ROW_HEIGHT}
          followTail={frozen === undefined}
          getKey={rowKey}
          renderItem={(row) => <TrafficRow row={row} open={open.has(row.seq)} onToggle={toggle} />}
        />
      ) : null}
      <ServerEvents />
      <HarborLog />
      <AppActivity />
    </>
  );
}
