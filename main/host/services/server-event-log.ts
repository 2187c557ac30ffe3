import type { EventPayload, ServerEventData } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';

/**
 * The last `servers.changed` events (starts, stops, errors, catalog changes), numbered and kept in
 * the Host so a reloaded window, or one opened later, still shows what happened. Bounded: the
 * oldest fall off. Each recorded event is announced as `serverEvents.entry` for live views.
 */
export class ServerEventLog implements Disposable {
  private entries: ServerEventData[] = [];
  private nextSeq = 1;
  private readonly stopListening: Disposable;

  constructor(
    private readonly events: HostEvents,
    private readonly limit = 500,
  ) {
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
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    this.events.emit('serverEvents.entry', entry);
  }
}
