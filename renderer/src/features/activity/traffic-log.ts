import type { RequestAnswered, TrafficRowData } from './traffic-pairing';

/** Characters of message text the Activity view holds at most (32 MiB of it, before the row count binds for large messages). */
export const TRAFFIC_VIEW_MAX_CHARS = 32 * 1024 * 1024;

/**
 * The rows the Activity view holds, newest last, at most `limit` rows and `maxChars` characters
 * of message text (whichever binds first; the Host already cut large messages to a preview, so
 * this holds when a session sees many of them): built to take thousands of
 * messages a minute. A message costs a push (and, for a response, a binary search for its
 * request); the oldest rows are dropped by moving a start index, not by copying. The list and
 * the servers named in it are copied out only when asked for, once per change however many
 * messages it took — so the page pays for a copy once a frame, not once a message.
 */
export class TrafficLog {
  /** Rows from `start` on are in the log; the ones before it were dropped and wait to be compacted. */
  private rows: TrafficRowData[] = [];
  private start = 0;
  /** Characters of text of the rows from `start` on. */
  private chars = 0;
  /** Rows per server, so the server list follows the rows without scanning them. */
  private readonly perServer = new Map<string, number>();
  private copied: readonly TrafficRowData[] | undefined;
  private serverList: readonly string[] | undefined;

  constructor(
    private readonly limit: number,
    private readonly maxChars = TRAFFIC_VIEW_MAX_CHARS,
  ) {}

  get size(): number {
    return this.rows.length - this.start;
  }

  /** Characters of message text held (what `maxChars` bounds). */
  get bytes(): number {
    return this.chars;
  }

  /** Appends a row; its sequence number is higher than every row's before it. */
  push(row: TrafficRowData): void {
    this.rows.push(row);
    this.chars += row.text.length;
    this.count(row.server, 1);
    this.copied = undefined;
    let drop = Math.max(0, this.size - this.limit);
    let chars = this.chars;
    for (let i = this.start; i < this.start + drop; i++) chars -= this.rows[i]!.text.length;
    // The newest row always stays; older ones go while the text is over its bound.
    while (chars > this.maxChars && this.size - drop > 1) chars -= this.rows[this.start + drop++]!.text.length;
    if (drop > 0) this.dropOldest(drop);
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
    this.chars = 0;
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
    for (let i = this.start; i < this.start + n; i++) {
      this.count(this.rows[i]!.server, -1);
      this.chars -= this.rows[i]!.text.length;
    }
    this.start += n;
    // Compacting once the dropped rows outnumber the kept keeps a push O(1) on average, and
    // lets go of the dropped rows' text soon (the bound is on what is held, not only shown).
    if (this.start > 64 && this.start > this.size) {
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
