import type { EventName, EventPayload } from '../../preload/contract';
import { assertMatchesContract, type EventSchemas } from './contract-checks';
import { toDisposable, type Disposable } from './lifecycle';

export type HostEventListener = <K extends EventName>(event: K, payload: EventPayload<K>) => void;

/** What a front door holds: it can listen, never emit (services/shell-door.ts is the shell's way to raise an event). */
export interface HostEventStream {
  on(listener: HostEventListener): Disposable;
  onEvent<K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void): Disposable;
  readonly listenerCount: number;
  /** Whether a listener would hear `event` (one of every event, or one of that event). */
  listens(event: EventName): boolean;
}

/** Whatever may emit the events named `N` (a bus, or a door that lets only those out). */
export interface EventEmitter<N extends EventName> {
  emit<K extends N>(event: K, payload: EventPayload<K>): void;
}

export interface HostEventsOptions {
  /**
   * The events' schemas to check every payload against; without them, no checks. The Host passes
   * them when contract checks are on (loadEventSchemas in contract-checks.ts): a one-shot command
   * with the checks off never builds them.
   */
  readonly schemas?: EventSchemas;
}

/** The Host's outgoing events, typed by the contract. Listeners that throw do not stop the others; their failures are reported. */
export class HostEvents {
  private readonly listeners = new Set<HostEventListener>();
  private readonly schemas: EventSchemas | undefined;
  /**
   * How many listeners hear each event, '*' for those of every event: what nobody hears is not
   * built (every CLI command listens to sampling.exchange only; a traffic.message per JSON-RPC
   * message, serialised and redacted for it, was a tool call's largest waste in `harbor exec`).
   */
  private readonly interest = new Map<EventName | '*', number>();
  private reportFailure: ((event: EventName, error: unknown) => void) | undefined;

  constructor(options: HostEventsOptions = {}) {
    this.schemas = options.schemas;
  }

  /** Where a listener's failure is said (the Host: Harbor's own log, with the event it was handling). */
  reportListenerFailures(report: (event: EventName, error: unknown) => void): void {
    this.reportFailure = report;
  }

  on(listener: HostEventListener): Disposable {
    return this.add(listener, '*');
  }

  /** Listens to one event, with its payload typed. */
  onEvent<K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void): Disposable {
    const wrapped: HostEventListener = (event, payload) => {
      if ((event as string) === name) listener(payload as unknown as EventPayload<K>);
    };
    return this.add(wrapped, name);
  }

  listens(event: EventName): boolean {
    return (this.interest.get('*') ?? 0) > 0 || (this.interest.get(event) ?? 0) > 0;
  }

  private add(listener: HostEventListener, heard: EventName | '*'): Disposable {
    this.listeners.add(listener);
    this.interest.set(heard, (this.interest.get(heard) ?? 0) + 1);
    return toDisposable(() => {
      if (!this.listeners.delete(listener)) return;
      const left = (this.interest.get(heard) ?? 1) - 1;
      if (left > 0) this.interest.set(heard, left);
      else this.interest.delete(heard);
    });
  }

  /** With payload checks on, a payload that drifts from the contract throws INTERNAL here, at the emitter, and reaches no listener. */
  emit<K extends EventName>(event: K, payload: EventPayload<K>): void {
    if (this.schemas) assertMatchesContract(this.schemas[event], payload, `The payload of event ${event}`);
    for (const listener of [...this.listeners]) {
      try {
        listener(event, payload);
      } catch (error) {
        // A broken listener (e.g. a closed WebSocket) must not break the Host or the others, nor vanish.
        try {
          this.reportFailure?.(event, error);
        } catch {
          // A report that fails too has nowhere left to go: the emitter and the other listeners go on.
        }
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** A view that listens only: no `emit`, not even at run time. */
  readOnly(): HostEventStream {
    const count = () => this.listenerCount;
    return Object.freeze({
      on: (listener: HostEventListener) => this.on(listener),
      onEvent: <K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void) => this.onEvent(name, listener),
      get listenerCount() {
        return count();
      },
      listens: (event: EventName) => this.listens(event),
    });
  }
}
