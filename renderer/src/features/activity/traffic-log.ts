import type { RequestAnswered, TrafficRowData } from './traffic-pairing';

/**
 * The rows the Activity view holds, newest last, at most `limit`: built to take thousands of
 * messages a minute. A message costs a push (and, for a response, a binary search for its
 * request); the oldest rows are dropped by moving a start index, not by copying. The list and
 * the servers named in it are copied out only when asked for, once per change however many
 * messages it took — so the page pays for a copy once a frame, not once a message.
 */
export class TrafficLog {
  /** Rows from `start` on are in the log; the ones before it were dropped and wait to be compacted. */
  private rows: TrafficRowData[] = [];
  private start = 0;
  /** Rows per server, so the server list follows the rows without scanning them. */
  private readonly perServer = new Map<string, number>();
  private copied: readonly TrafficRowData[] | undefined;
  private serverList: readonly string[] | undefined;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.rows.length - this.start;
  }

  /** Appends a row; its sequence number is higher than every row's before it. */
  push(row: TrafficRowData): void {
    this.rows.push(row);
    this.count(row.server, 1);
    this.copied = undefined;
    if (this.size > this.limit) this.dropOldest(this.size - this.limit);
  }

  /** Marks an answered request, if it is still in the log, with what its response says. */
  answer({ requestSeq, patch }: RequestAnswered): void {
    const index = this.indexOf(requestSeq);
    if (index === undefined) return;
    this.rows[index] = { ...this.rows[index]!, ...patch };
    this.copied = undefined;
  }

  /** The rows, oldest first: the same array until the log changes. */
  list(): readonly TrafficRowData[] {
    this.copied ??= this.rows.slice(this.start);
    return this.copied;
  }

  /** The servers with a row in the log, sorted: the same array until one comes or goes. */
  servers(): readonly string[] {
    this.serverList ??= [...this.perServer.keys()].sort();
    return this.serverList;
  }

  clear(): void {
    this.rows = [];
    this.start = 0;
    this.perServer.clear();
    this.copied = undefined;
    this.serverList = undefined;
  }

  /** The row's index in `rows` by binary search: the rows are in sequence order. */
  private indexOf(seq: number): number | undefined {
    let low = this.start;
    let high = this.rows.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.rows[middle]!.seq;
      if (at === seq) return middle;
      if (at < seq) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  private dropOldest(n: number): void {
    for (let i = this.start; i < this.start + n; i++) this.count(this.rows[i]!.server, -1);
    this.start += n;
    // Compacting once the dropped rows outnumber the kept keeps a push O(1) on average.
    if (this.start > this.limit) {
      this.rows = this.rows.slice(this.start);
      this.start = 0;
    }
  }

  private count(server: string, by: 1 | -1): void {
    const n = (this.perServer.get(server) ?? 0) + by;
    if (n > 0 && this.perServer.has(server)) {
      this.perServer.set(server, n);
      return;
    }
    if (n > 0) this.perServer.set(server, n);
    else this.perServer.delete(server);
    this.serverList = undefined;
  }
}
