import type { HarborApi, HarborErrorData, TrafficEntryData } from '../../../../preload/contract';
import { asErrorData } from '../../lib/load-state';
import { FrameBatch } from './frame-batch';
import { TrafficLog } from './traffic-log';
import { TrafficPairing, type TrafficRowData } from './traffic-pairing';

export type { TrafficRowData } from './traffic-pairing';

export type TrafficState =
  | { readonly status: 'loading'; readonly rows: readonly TrafficRowData[]; readonly servers: readonly string[] }
  | { readonly status: 'error'; readonly error: HarborErrorData; readonly rows: readonly TrafficRowData[]; readonly servers: readonly string[] }
  | { readonly status: 'ready'; readonly rows: readonly TrafficRowData[]; readonly servers: readonly string[] };

type Status = { readonly status: 'loading' } | { readonly status: 'error'; readonly error: HarborErrorData } | { readonly status: 'ready' };

/**
 * The Host's JSON-RPC log, loaded once (traffic.list) and then followed live (traffic.message),
 * newest last, bounded. Listening starts before the first load so nothing falls in between;
 * entries are merged by their sequence number. A message is taken in as it comes (pairing, the
 * log's indexes); the state the page reads is put together only when it is read.
 */
export class TrafficStore {
  private status: Status = { status: 'loading' };
  private state: TrafficState | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly pairing = new TrafficPairing();
  private readonly log: TrafficLog;
  /** Live messages can come by the hundred a second: listeners hear of them once a frame. */
  private readonly liveBatch = new FrameBatch(() => this.notify());
  private lastSeq = 0;
  private pending: TrafficEntryData[] = [];
  private loaded = false;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly api: HarborApi,
    limit = 10_000,
  ) {
    this.log = new TrafficLog(limit);
  }

  start(): () => void {
    this.stopListening = this.api.on.traffic.message((entry) => {
      if (!this.loaded) this.pending.push(entry);
      else if (this.append([entry])) this.liveBatch.request();
    });
    void this.load();
    return () => {
      this.stopListening?.();
      this.stopListening = undefined;
      this.liveBatch.dispose();
    };
  }

  private async load(): Promise<void> {
    const result = await this.api.traffic.list({});
    this.loaded = true;
    if (!result.ok) {
      this.status = { status: 'error', error: asErrorData(result.error) };
      this.state = undefined;
      this.notify();
      return;
    }
    this.status = { status: 'ready' };
    this.append([...result.value, ...this.pending]);
    this.pending = [];
    this.state = undefined;
    this.notify();
  }

  snapshot = (): TrafficState => {
    this.state ??= { ...this.status, rows: this.log.list(), servers: this.log.servers() };
    return this.state;
  };

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Takes in the messages not seen yet; says whether there were any. */
  private append(entries: readonly TrafficEntryData[]): boolean {
    // The same message may come from the list and the live feed: one row per sequence number.
    const fresh = [...new Map(entries.filter((e) => e.seq > this.lastSeq).map((e) => [e.seq, e])).values()].sort((a, b) => a.seq - b.seq);
    if (fresh.length === 0) return false;
    this.status = { status: 'ready' };
    for (const entry of fresh) {
      const described = this.pairing.describe(entry);
      this.log.push(described.row);
      if (described.answered) this.log.answer(described.answered);
    }
    this.lastSeq = fresh.at(-1)!.seq;
    this.state = undefined;
    return true;
  }

  /** Empties the list; only messages from now on show (the Host keeps its log). */
  clear(): void {
    if (this.status.status !== 'ready') return;
    this.log.clear();
    this.state = undefined;
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

export interface TrafficFilter {
  readonly server: string;
  readonly method: string;
  readonly direction: 'all' | 'out' | 'in';
}

export const NO_FILTER: TrafficFilter = { server: '', method: '', direction: 'all' };

export function filterTraffic(rows: readonly TrafficRowData[], filter: TrafficFilter): readonly TrafficRowData[] {
  const method = filter.method.trim().toLowerCase();
  if (!filter.server && !method && filter.direction === 'all') return rows;
  return rows.filter(
    (row) =>
      (!filter.server || row.server === filter.server) &&
      (filter.direction === 'all' || row.direction === filter.direction) &&
      (!method || row.label.toLowerCase().includes(method)),
  );
}

/** The message as indented JSON (it arrives as one line); the raw text when it is not JSON. */
export function prettyMessage(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
