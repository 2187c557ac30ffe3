import { useCallback, useSyncExternalStore } from 'react';
import type { HarborApi, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData, type LoadState } from '../../lib/load-state';

export type ServersState = LoadState<readonly ServerSummary[]>;

/**
 * Every server's summary, kept current for the whole window: fetched once, then patched from
 * `servers.changed` (each event carries the server's new summary), refetched when an event does
 * not say enough. The Servers page, the navigation's health signal and the notifications all read
 * this one copy instead of each fetching and listening on its own.
 */
export class ServerStatusStore {
  private state: ServersState = { status: 'loading' };
  private readonly listeners = new Set<() => void>();
  private started = false;
  private loading = false;
  private stale = false;

  constructor(private readonly api: HarborApi) {}

  snapshot = (): ServersState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (!this.started) {
      this.started = true;
      this.api.on.servers.changed((event) => this.onChanged(event.name, event.reason, event.summary));
      void this.reload();
    }
    return () => this.listeners.delete(listener);
  };

  /** Fetches the list again (at most one fetch at a time; a request during one runs once after it). */
  reload = async (): Promise<void> => {
    if (this.loading) {
      this.stale = true;
      return;
    }
    this.loading = true;
    try {
      const result = await this.api.servers.list({});
      // A failed refetch keeps showing the list already there.
      if (result.ok) this.set({ status: 'ready', value: result.value });
      else if (this.state.status !== 'ready') this.set({ status: 'error', error: asErrorData(result.error) });
    } finally {
      this.loading = false;
      if (this.stale) {
        this.stale = false;
        void this.reload();
      }
    }
  };

  private onChanged(name: string, reason: string, summary: ServerSummary | undefined): void {
    const current = this.state;
    if (current.status !== 'ready' || this.loading) {
      void this.reload();
      return;
    }
    if (reason === 'removed') {
      this.set({ status: 'ready', value: current.value.filter((s) => s.name !== name) });
      return;
    }
    if (!summary) {
      void this.reload();
      return;
    }
    const known = current.value.some((s) => s.name === name);
    // A new name may be a rename, which also removed the old one: the list says which.
    if (!known) void this.reload();
    else this.set({ status: 'ready', value: current.value.map((s) => (s.name === name ? summary : s)) });
  }

  private set(state: ServersState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }
}

const stores = new WeakMap<HarborApi, ServerStatusStore>();

/** The one store for this Host connection. */
export function serverStatusStore(api: HarborApi): ServerStatusStore {
  let store = stores.get(api);
  if (!store) stores.set(api, (store = new ServerStatusStore(api)));
  return store;
}

/** Every server's summary, live, and a way to fetch the list again. */
export function useServerStatus(): readonly [ServersState, () => void] {
  const store = serverStatusStore(useHarbor());
  const state = useSyncExternalStore(store.subscribe, store.snapshot);
  const reload = useCallback(() => void store.reload(), [store]);
  return [state, reload] as const;
}
