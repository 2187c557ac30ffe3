import type { HostEvents } from '../events';
import { markAsDisposed, toDisposable, trackDisposable, type Disposable } from '../lifecycle';
import { plainTrafficEntry, type TrafficEntry, type TrafficLog } from '../servers/traffic';

/**
 * The traffic log as the front doors see it: the Activity view's list and live `traffic.message`
 * events, `--trace` lines. Entries are redacted by the log itself when their text is first read.
 */
export class TrafficFeed implements Disposable {
  private readonly stopForwarding: () => void;

  constructor(
    private readonly log: TrafficLog,
    events: HostEvents,
    /** Whether anyone hears traffic.message (HostEvents.listens): an entry nobody watches is never serialised. */
    watched: () => boolean,
  ) {
    this.stopForwarding = log.onEntry((entry) => {
      if (watched()) events.emit('traffic.message', plainTrafficEntry(entry));
    });
    trackDisposable(this);
  }

  /** Plain entries (text included), oldest first. */
  list(filter: { server?: string; afterSeq?: number } = {}): TrafficEntry[] {
    return this.log.list(filter);
  }

  /** Every entry as it is recorded (read `text` only when needed), until the returned disposable is disposed. */
  onEntry(listener: (entry: TrafficEntry) => void): Disposable {
    return toDisposable(this.log.onEntry(listener));
  }

  dispose(): void {
    markAsDisposed(this);
    this.stopForwarding();
  }
}
