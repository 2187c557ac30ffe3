/**
 * The apps' audit trail: every app opened, every CSP grant and refusal, every permission decision
 * and every request an app made through its bridge, with how it ended. Kept in memory (the newest
 * entries, bounded) and announced as each is added, for the Activity page.
 */
import type { AppActivityEntry } from '../../../preload/contract';
import { RingLog } from '../ring-log';
import { detached } from '../text-preview';

export const APP_ACTIVITY_LIMIT = 2000;
const MAX_DETAIL = 500;

export type NewAppActivity = Omit<AppActivityEntry, 'seq' | 'at'>;

/** The audit trail's size cap (characters of detail and URI): well above what 2,000 usual entries take. */
const APP_ACTIVITY_BYTES = 2 * 1024 * 1024;

export class AppActivityLog {
  private readonly entries: RingLog<AppActivityEntry>;
  private seq = 0;

  constructor(
    private readonly announce: (entry: AppActivityEntry) => void,
    limit = APP_ACTIVITY_LIMIT,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new RingLog({ maxEntries: limit, maxBytes: APP_ACTIVITY_BYTES }, (e) => 64 + e.detail.length + e.uri.length + e.method.length);
  }

  add(entry: NewAppActivity): AppActivityEntry {
    // A copy of the start, not a slice: a slice would keep the whole text alive in the trail.
    const detail = entry.detail.length > MAX_DETAIL ? `${detached(entry.detail.slice(0, MAX_DETAIL - 1))}…` : entry.detail;
    const added: AppActivityEntry = { ...entry, detail, seq: ++this.seq, at: this.now() };
    this.entries.push(added);
    this.announce(added);
    return added;
  }

  /** Oldest first; only those after `afterSeq` when given. */
  list(afterSeq?: number): AppActivityEntry[] {
    return afterSeq === undefined ? this.entries.toArray() : this.entries.filter((e) => e.seq > afterSeq);
  }
}
