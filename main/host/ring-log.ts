/** How much a ring log may hold: whichever limit is reached first drops the oldest entries. */
export interface RingLimits {
  readonly maxEntries: number;
  /** The sum of the entries' sizes (as `sizeOf` measures them: characters of text, near enough bytes). */
  readonly maxBytes: number;
}

/**
 * The Host's one bounded in-memory log (traffic, server stderr, app activity…): entries in the
 * order they came, newest last, capped by count AND by size, so a few huge entries cannot hold
 * what a count cap alone would let them. Each entry's size is measured once, when it is pushed;
 * the total is kept as entries come and go (`bytes`), which is what the caps and the tests read.
 *
 * The newest entry always stays, even alone over `maxBytes`: callers store previews of large
 * bodies (`text-preview.ts`), never the bodies themselves. Dropping moves a start index and
 * compacts now and then, so a push is O(1) on average however full the log is.
 */
export class RingLog<T> {
  private items: T[] = [];
  private sizes: number[] = [];
  private start = 0;
  private total = 0;

  constructor(
    readonly limits: RingLimits,
    private readonly sizeOf: (entry: T) => number,
  ) {
    if (!(limits.maxEntries >= 1) || !(limits.maxBytes >= 0)) throw new RangeError(`a ring log needs maxEntries ≥ 1 and maxBytes ≥ 0, got ${limits.maxEntries} and ${limits.maxBytes}`);
  }

  /** How many entries it holds. */
  get length(): number {
    return this.items.length - this.start;
  }

  /** The sum of the held entries' sizes. */
  get bytes(): number {
    return this.total;
  }

  /** Appends an entry; returns how many old ones it pushed out. */
  push(entry: T): number {
    const size = Math.max(0, this.sizeOf(entry));
    this.items.push(entry);
    this.sizes.push(size);
    this.total += size;
    let dropped = 0;
    while (this.length > 1 && (this.length > this.limits.maxEntries || this.total > this.limits.maxBytes)) {
      this.total -= this.sizes[this.start]!;
      // Let go of the entry now: its slot may wait a while for the next compaction.
      (this.items as (T | undefined)[])[this.start] = undefined;
      this.start++;
      dropped++;
    }
    if (this.start > 64 && this.start > this.length) this.compact();
    return dropped;
  }

  /** The entries, oldest first (a copy). */
  toArray(): T[] {
    return this.items.slice(this.start);
  }

  /** The entries that pass `keep`, oldest first. */
  filter(keep: (entry: T) => boolean): T[] {
    const out: T[] = [];
    for (let i = this.start; i < this.items.length; i++) if (keep(this.items[i]!)) out.push(this.items[i]!);
    return out;
  }

  /** The newest `n` entries, oldest first. */
  last(n: number): T[] {
    return n <= 0 ? [] : this.items.slice(Math.max(this.start, this.items.length - n));
  }

  /** Drops every entry that does not pass `keep` (rare: a server removed, a refusal settled). */
  retain(keep: (entry: T) => boolean): void {
    const items: T[] = [];
    const sizes: number[] = [];
    let total = 0;
    for (let i = this.start; i < this.items.length; i++) {
      if (!keep(this.items[i]!)) continue;
      items.push(this.items[i]!);
      sizes.push(this.sizes[i]!);
      total += this.sizes[i]!;
    }
    this.items = items;
    this.sizes = sizes;
    this.start = 0;
    this.total = total;
  }

  clear(): void {
    this.items = [];
    this.sizes = [];
    this.start = 0;
    this.total = 0;
  }

  private compact(): void {
    this.items = this.items.slice(this.start);
    this.sizes = this.sizes.slice(this.start);
    this.start = 0;
  }
}
