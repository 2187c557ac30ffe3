import { randomUUID } from 'node:crypto';
import type { ConsentChoice, ConsentRequest } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';

interface Pending {
  readonly request: ConsentRequest;
  readonly resolve: (choice: ConsentChoice) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * Questions waiting for the person: each has an id and a deadline, goes out as `consent.request`,
 * and ends exactly once as `consent.resolved`. Consent defaults to no: a reply for an unknown or
 * expired id, or one the request did not offer, is ignored; the deadline passing, or disposal, is
 * a denial. Shared by the tool/launch gate and the desktop shell's add-server links.
 */
export class PendingConsents implements Disposable {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly events: Pick<HostEvents, 'emit'>,
    private readonly timeoutMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {
    trackDisposable(this);
  }

  ask(request: Omit<ConsentRequest, 'id' | 'deadline'>): Promise<ConsentChoice> {
    const id = randomUUID();
    const full: ConsentRequest = { ...request, id, deadline: this.now() + this.timeoutMs };
    return new Promise<ConsentChoice>((resolve) => {
      const timer = setTimeout(() => this.settle(id, 'deny'), this.timeoutMs);
      timer.unref?.();
      this.pending.set(id, { request: full, resolve, timer });
      this.events.emit('consent.request', full);
    });
  }

  /** The person's answer; true when it settled a request. */
  respond(id: string, decision: ConsentChoice): boolean {
    const pending = this.pending.get(id);
    if (!pending || pending.request.deadline < this.now() || !pending.request.options.includes(decision)) return false;
    return this.settle(id, decision);
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Requests still waiting (a reloaded window shows them again). */
  requests(): ConsentRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  private settle(id: string, decision: ConsentChoice): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.resolve(decision);
    this.events.emit('consent.resolved', { id, decision });
    return true;
  }

  dispose(): void {
    markAsDisposed(this);
    for (const id of [...this.pending.keys()]) this.settle(id, 'deny');
  }
}
