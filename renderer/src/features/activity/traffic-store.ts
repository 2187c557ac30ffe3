import type { HarborApi, TrafficEntryData } from '../../../../preload/contract';
import { asErrorData } from '../../lib/load-state';
import type { HarborErrorData } from '../../../../preload/contract';

/** A message as the Activity view shows it: a response carries the method of the request it answers. */
export interface TrafficRowData extends TrafficEntryData {
  /** For a response: the request's method (the message itself has none). */
  readonly answers?: string;
  /** `method` or, for a response, `answers`: what the method filter matches. */
  readonly label: string;
  /** A response whose `error` is set. */
  readonly isError: boolean;
}

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
  private readonly requests = new Map<string, string>();
  private lastSeq = 0;
  private pending: TrafficEntryData[] = [];
  private loaded = false;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly api: HarborApi,
    private readonly limit = 5000,
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
    const rows = fresh.map((entry) => this.describe(entry));
    this.lastSeq = fresh.at(-1)?.seq ?? this.lastSeq;
    const all = [...this.state.rows, ...rows];
    this.state = { status: 'ready', rows: all.length > this.limit ? all.slice(all.length - this.limit) : all };
    this.emit();
  }

  private describe(entry: TrafficEntryData): TrafficRowData {
    const key = entry.id === undefined ? undefined : `${entry.server}\u0000${entry.direction === 'out' ? 'out' : 'in'}\u0000${String(entry.id)}`;
    if (entry.method && key) {
      // A request: remember its method for the response coming the other way.
      this.requests.set(key, entry.method);
      if (this.requests.size > 10_000) this.requests.delete(this.requests.keys().next().value!);
    }
    const answerKey = entry.id === undefined ? undefined : `${entry.server}\u0000${entry.direction === 'out' ? 'in' : 'out'}\u0000${String(entry.id)}`;
    const answers = !entry.method && answerKey ? this.requests.get(answerKey) : undefined;
    return {
      ...entry,
      ...(answers ? { answers } : {}),
      label: entry.method ?? (answers ? `${answers} (response)` : entry.id !== undefined ? 'response' : 'message'),
      isError: !entry.method && /"error"\s*:\s*\{/.test(entry.text),
    };
  }

  private emit(): void {
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
