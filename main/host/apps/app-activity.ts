/**
 * The apps' audit trail: every app opened, every CSP grant and refusal, every permission decision
 * and every request an app made through its bridge, with how it ended. Kept in memory (the newest
 * entries, bounded) and announced as each is added, for the Activity page.
 */
import type { AppActivityEntry } from '../../../preload/contract';

export const APP_ACTIVITY_LIMIT = 2000;
const MAX_DETAIL = 500;

export type NewAppActivity = Omit<AppActivityEntry, 'seq' | 'at'>;

export class AppActivityLog {
  private entries: AppActivityEntry[] = [];
  private seq = 0;

  constructor(
    private readonly announce: (entry: AppActivityEntry) => void,
    private readonly limit = APP_ACTIVITY_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  add(entry: NewAppActivity): AppActivityEntry {
    const detail = entry.detail.length > MAX_DETAIL ? `${entry.detail.slice(0, MAX_DETAIL - 1)}…` : entry.detail;
    const added: AppActivityEntry = { ...entry, detail, seq: ++this.seq, at: this.now() };
    this.entries.push(added);
    // Dropped in batches, so a busy app does not make every entry copy the whole log.
    if (this.entries.length > this.limit * 1.25) this.entries = this.entries.slice(-this.limit);
    this.announce(added);
    return added;
  }

  /** Oldest first; only those after `afterSeq` when given. */
  list(afterSeq?: number): AppActivityEntry[] {
    const recent = this.entries.slice(-this.limit);
    return afterSeq === undefined ? recent : recent.filter((e) => e.seq > afterSeq);
  }
}
