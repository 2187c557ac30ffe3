import type { ConsentRequest, EventName, EventPayload } from '../../../preload/contract';
import type { EventEmitter } from '../events';

/** The events the desktop shell raises itself: the updater's status and its harbor:// links' consent questions. */
export type ShellEventName = Extract<EventName, 'app.update' | 'consent.request' | 'consent.resolved'>;

/**
 * The shell's way in and out for what it raises itself. Its events go on the Host's inner bus, so
 * they leave through the one exit (EVENT_EXIT) like every other event; the consent questions it
 * keeps are listed through here, so they leave cleaned like the gate's own.
 */
export class ShellDoor implements EventEmitter<ShellEventName> {
  constructor(private readonly inner: EventEmitter<ShellEventName>) {}

  emit<K extends ShellEventName>(event: K, payload: EventPayload<K>): void {
    this.inner.emit(event, payload);
  }

  /** The shell's waiting consent questions, as the page may see them (the door masks them). */
  consentRequests(requests: readonly ConsentRequest[]): ConsentRequest[] {
    return [...requests];
  }
}
