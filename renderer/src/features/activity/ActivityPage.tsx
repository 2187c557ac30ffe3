import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useHarbor } from '../../app/services';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { VirtualList } from '../../ui/VirtualList';
import { AppActivity } from '../apps/AppActivity';
import { ServerEvents } from './ServerEvents';
import { TrafficFilters } from './TrafficFilters';
import { TrafficRow } from './TrafficRow';
import { NO_FILTER, TrafficStore, filterTraffic, type TrafficFilter } from './traffic-store';
import './activity.css';

/** Every JSON-RPC message between Harbor and its servers (secrets masked), live, filterable. */
export function ActivityPage() {
  const api = useHarbor();
  const store = useMemo(() => new TrafficStore(api), [api]);
  useEffect(() => store.start(), [store]);
  const state = useSyncExternalStore(store.subscribe, store.snapshot);
  const [filter, setFilter] = useState<TrafficFilter>(NO_FILTER);
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const servers = useMemo(() => [...new Set(state.rows.map((r) => r.server))].sort(), [state.rows]);
  const rows = useMemo(() => filterTraffic(state.rows, filter), [state.rows, filter]);
  const toggle = (seq: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(seq)) next.add(seq);
      return next;
    });

  return (
    <>
      <PageHeader title="Activity">Every message between Harbor and your servers, as it happens. Secrets are masked.</PageHeader>
      <TrafficFilters filter={filter} servers={servers} onChange={setFilter} shown={rows.length} total={state.rows.length} />
      {state.status === 'loading' ? <Loading label="Loading messages…" /> : null}
      {state.status === 'error' ? <ErrorMessage error={state.error} /> : null}
      {state.status === 'ready' && state.rows.length === 0 ? (
        <EmptyState title="No messages yet">
          <p>When a server starts, or you run a tool, read a resource or chat, its JSON-RPC messages show up here.</p>
        </EmptyState>
      ) : null}
      {state.status === 'ready' && state.rows.length > 0 && rows.length === 0 ? (
        <EmptyState title="No message matches these filters">
          <button type="button" className="button" onClick={() => setFilter(NO_FILTER)}>
            Clear filters
          </button>
        </EmptyState>
      ) : null}
      {rows.length > 0 ? (
        <VirtualList
          items={rows}
          label="Messages"
          className="traffic"
          estimateSize={44}
          followTail
          getKey={(row) => String(row.seq)}
          renderItem={(row) => <TrafficRow row={row} open={open.has(row.seq)} onToggle={() => toggle(row.seq)} />}
        />
      ) : null}
      <ServerEvents />
      <AppActivity />
    </>
  );
}
