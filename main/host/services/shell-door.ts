import type { EventName, EventPayload } from '../../../preload/contract';
import type { EventEmitter } from '../events';

/** The events the desktop shell raises itself: the updater's status. (Its harbor:// links ask through the Host's consent queue, host.consent.ask.) */
export type ShellEventName = Extract<EventName, 'app.update'>;

/**
 * The shell's way out for what it raises itself. Its events go on the Host's inner bus, so they
 * leave through the one exit (EVENT_EXIT) like every other event.
 */
export class ShellDoor implements EventEmitter<ShellEventName> {
  constructor(private readonly inner: EventEmitter<ShellEventName>) {}

  emit<K extends ShellEventName>(event: K, payload: EventPayload<K>): void {
    this.inner.emit(event, payload);
  }
}
