import type { ConsentChoice, ConsentRequest } from '../../../preload/contract';
import type { EventEmitter } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { PendingQuestions } from '../pending-questions';

/**
 * Consent questions waiting for the person: each goes out as `consent.request` and ends exactly
 * once as `consent.resolved`. Consent defaults to no: a reply for an unknown or expired id, or one
 * the request did not offer, is ignored; the deadline passing, or disposal, is a denial. Shared by
 * the tool/launch gate and the desktop shell's add-server links.
 */
export class PendingConsents implements Disposable {
  private readonly questions: PendingQuestions<ConsentRequest, ConsentChoice>;

  constructor(events: EventEmitter<'consent.request' | 'consent.resolved'>, timeoutMs = 5 * 60_000, now: () => number = Date.now) {
    trackDisposable(this);
    this.questions = new PendingQuestions<ConsentRequest, ConsentChoice>({
      timeoutMs,
      now,
      defaultAnswer: 'deny',
      asked: (request) => events.emit('consent.request', request),
      settled: (request, decision) => events.emit('consent.resolved', { id: request.id, decision }),
      check: (request, decision) =>
        request.options.includes(decision) ? { ok: true, answer: decision } : { ok: false, problem: `"${decision}" was not offered for this request.` },
    });
  }

  /** An aborted `signal` takes the question down (consent.resolved, as a denial). */
  ask(request: Omit<ConsentRequest, 'id' | 'deadline'>, signal?: AbortSignal): Promise<ConsentChoice> {
    return this.questions.ask(request, signal);
  }

  /** The person's answer; true when it settled a request. */
  respond(id: string, decision: ConsentChoice): boolean {
    return this.questions.answer(id, decision).kind === 'settled';
  }

  has(id: string): boolean {
    return this.questions.has(id);
  }

  get size(): number {
    return this.questions.size;
  }

  /** Requests still waiting (a reloaded window shows them again). */
  requests(): ConsentRequest[] {
    return this.questions.requests();
  }

  dispose(): void {
    markAsDisposed(this);
    this.questions.dispose();
  }
}
