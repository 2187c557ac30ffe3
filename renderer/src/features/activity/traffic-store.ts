import type { HarborApi, HarborErrorData, TrafficEntryData } from '../../../../preload/contract';
import { asErrorData } from '../../lib/load-state';
import { TrafficPairing, type RequestAnswered, type TrafficRowData } from './traffic-pairing';

export type { TrafficRowData } from './traffic-pairing';

export type TrafficState =
  | { readonly status: 'loading'; readonly rows: readonly TrafficRowData[] }
  | { readonly status: 'error'; readonly error: HarborErrorData; readonly rows: readonly TrafficRowData[] }
  | { readonly status: 'ready'; readonly rows: readonly TrafficRowData[] };

/**
 * The Host's JSON-RPC log, loaded once (traffic.list) and then followed live (traffic.message),
 * newest last, bounded. Listening starts before the first load so nothing falls in between;
 * entries are merged by their sequence number.
 */
export class TrafficStore {
  private state: TrafficState = { status: 'loading', rows: [] };
  private readonly listeners = new Set<() => void>();
  private readonly pairing = new TrafficPairing();
  private lastSeq = 0;
  private pending: TrafficEntryData[] = [];
  private loaded = false;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly api: HarborApi,
    private readonly limit = 10_000,
  ) {}

  start(): () => void {
    this.stopListening = this.api.on.traffic.message((entry) => {
      if (this.loaded) this.append([entry]);
      else this.pending.push(entry);
    });
    void this.load();
    return () => {
      this.stopListening?.();
      this.stopListening = undefined;
    };
  }

  private async load(): Promise<void> {
    const result = await this.api.traffic.list({});
    this.loaded = true;
    if (!result.ok) {
      this.state = { status: 'error', error: asErrorData(result.error), rows: this.state.rows };
      this.emit();
      return;
    }
    this.state = { status: 'ready', rows: [] };
    this.append([...result.value, ...this.pending]);
    this.pending = [];
  }

  snapshot = (): TrafficState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private append(entries: readonly TrafficEntryData[]): void {
    // The same message may come from the list and the live feed: one row per sequence number.
    const bySeq = new Map(entries.filter((e) => e.seq > this.lastSeq).map((e) => [e.seq, e]));
    const fresh = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    if (fresh.length === 0 && this.state.status === 'ready') {
      this.emit();
      return;
    }
    const answered: RequestAnswered[] = [];
    const rows = fresh.map((entry) => {
      const described = this.pairing.describe(entry);
      if (described.answered) answered.push(described.answered);
      return described.row;
    });
    this.lastSeq = fresh.at(-1)?.seq ?? this.lastSeq;
    const all = answerRequests([...this.state.rows, ...rows], answered);
    this.state = { status: 'ready', rows: all.length > this.limit ? all.slice(all.length - this.limit) : all };
    this.emit();
  }

  /** Empties the list; only messages from now on show (the Host keeps its log). */
  clear(): void {
    if (this.state.status !== 'ready') return;
    this.state = { status: 'ready', rows: [] };
    this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Marks each answered request with its response's sequence, latency and outcome; requests are searched newest first. */
function answerRequests(rows: TrafficRowData[], answered: readonly RequestAnswered[]): TrafficRowData[] {
  if (answered.length === 0) return rows;
  const patches = new Map(answered.map((a) => [a.requestSeq, a.patch]));
  for (let i = rows.length - 1; i >= 0 && patches.size > 0; i--) {
    const patch = patches.get(rows[i]!.seq);
    if (!patch) continue;
    rows[i] = { ...rows[i]!, ...patch };
    patches.delete(rows[i]!.seq);
  }
  return rows;
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
