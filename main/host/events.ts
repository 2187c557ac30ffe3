import type { EventName, EventPayload } from '../../preload/contract';
import { toDisposable, type Disposable } from './lifecycle';

export type HostEventListener = <K extends EventName>(event: K, payload: EventPayload<K>) => void;

/** The Host's outgoing events, typed by the contract. Listeners that throw do not stop the others. */
export class HostEvents {
  private readonly listeners = new Set<HostEventListener>();

  on(listener: HostEventListener): Disposable {
    this.listeners.add(listener);
    return toDisposable(() => {
      this.listeners.delete(listener);
    });
  }

  /** Listens to one event, with its payload typed. */
  onEvent<K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void): Disposable {
    return this.on((event, payload) => {
      if ((event as string) === name) listener(payload as unknown as EventPayload<K>);
    });
  }

  emit<K extends EventName>(event: K, payload: EventPayload<K>): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event, payload);
      } catch {
        // A broken listener (e.g. a closed WebSocket) must not break the Host or the others.
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
