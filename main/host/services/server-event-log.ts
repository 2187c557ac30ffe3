import type { EventPayload, ServerEventData } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { RingLog, type RingLimits } from '../ring-log';
import { jsonSizeAtMost } from '../text-preview';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';

/** At most 500 events, and 2 MB of them (a summary may carry a stderr tail). */
export const SERVER_EVENT_LIMITS: RingLimits = { maxEntries: 500, maxBytes: 2 * 1024 * 1024 };

/**
 * The last `servers.changed` events (starts, stops, errors, catalog changes), numbered and kept in
 * the Host so a reloaded window, or one opened later, still shows what happened. Bounded: the
 * oldest fall off. Each recorded event is announced as `serverEvents.entry` for live views.
 */
export class ServerEventLog implements Disposable {
  private readonly entries: RingLog<ServerEventData>;
  private nextSeq = 1;
  private readonly stopListening: Disposable;

  constructor(
    private readonly events: HostEvents,
    limit = SERVER_EVENT_LIMITS.maxEntries,
  ) {
    this.entries = new RingLog({ ...SERVER_EVENT_LIMITS, maxEntries: limit }, (entry) => jsonSizeAtMost(entry, SERVER_EVENT_LIMITS.maxBytes));
    this.stopListening = events.onEvent('servers.changed', (payload) => this.record(payload));
    trackDisposable(this);
  }

  /** Recorded events, oldest first; after `afterSeq` when given. */
  list(filter: { afterSeq?: number } = {}): ServerEventData[] {
    const after = filter.afterSeq ?? 0;
    return this.entries.filter((entry) => entry.seq > after);
  }

  dispose(): void {
    markAsDisposed(this);
    void this.stopListening.dispose();
  }

  private record(payload: EventPayload<'servers.changed'>): void {
    const entry: ServerEventData = { seq: this.nextSeq++, at: Date.now(), event: payload };
    this.entries.push(entry);
    this.events.emit('serverEvents.entry', entry);
  }
}
