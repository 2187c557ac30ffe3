import { randomUUID } from 'node:crypto';
import { markAsDisposed, trackDisposable, type Disposable } from './lifecycle';

/** What every question to the person carries: an id to answer it by, and when it stops waiting. */
export interface Question {
  readonly id: string;
  readonly deadline: number;
}

/** How one answer went: settled the question, named no waiting question, or was refused (the question keeps waiting). */
export type AnswerOutcome<P = string> = { readonly kind: 'settled' } | { readonly kind: 'unknown' } | { readonly kind: 'refused'; readonly problem: P };

export interface PendingQuestionsOptions<Q extends Question, A, P = string> {
  /** How long a question waits for the person. */
  readonly timeoutMs: number;
  /** The answer when nobody gives one: the deadline passing, the asker giving up (abort) or disposal. */
  readonly defaultAnswer: A;
  /** Announces a new question (e.g. emits `consent.request`). */
  readonly asked: (question: Q) => void;
  /** Announces how a question ended, exactly once (e.g. emits `consent.resolved`). */
  readonly settled: (question: Q, answer: A) => void;
  /**
   * Checks the person's answer before it settles anything: a problem refuses it and the question
   * keeps waiting (the person can answer again). The answer returned may be a cleaned copy.
   */
  readonly check?: (question: Q, answer: A) => { readonly ok: true; readonly answer: A } | { readonly ok: false; readonly problem: P };
  readonly now?: () => number;
}

interface Waiting<Q, A> {
  readonly question: Q;
  readonly resolve: (answer: A) => void;
  readonly cleanup: () => void;
}

/**
 * The one queue of the person's pending decisions. Every question Harbor puts to the person waits
 * here: consent (a tool call, a launch, a secret, a harbor:// link — consent/pending.ts), the
 * review of a sampling request (sampling/sampling-review.ts) and a server's form or page
 * (servers/app-elicitation.ts); an App's requests reach the person as consent questions, withdrawn
 * with the app (apps/app-requests.ts). Each kind is a configuration of this class — its events,
 * deadline, default answer and answer check — not a queue of its own.
 *
 * Ask, wait, answer once, time out, cancel: each question gets an id and a deadline, is announced
 * once, and settles exactly once, with the person's answer or the default answer (deadline,
 * cancel, the asker's abort signal, disposal). An answer for an unknown, finished or expired id
 * settles nothing. `requests()` lists what is still waiting, so a reloaded window shows it again.
 */
export class PendingQuestions<Q extends Question, A, P = string> implements Disposable {
  private readonly waiting = new Map<string, Waiting<Q, A>>();
  private readonly now: () => number;
  private disposed = false;

  constructor(private readonly options: PendingQuestionsOptions<Q, A, P>) {
    this.now = options.now ?? Date.now;
    trackDisposable(this);
  }

  /** Asks; resolves with the answer (never rejects). An aborted `signal` settles it with the default answer. */
  ask(question: Omit<Q, 'id' | 'deadline'>, signal?: AbortSignal): Promise<A> {
    const { timeoutMs, defaultAnswer } = this.options;
    if (this.disposed || signal?.aborted) return Promise.resolve(defaultAnswer);
    const id = randomUUID();
    const full = { ...question, id, deadline: this.now() + timeoutMs } as Q;
    return new Promise<A>((resolve) => {
      const timer = setTimeout(() => this.settle(id, defaultAnswer), timeoutMs);
      timer.unref?.();
      const onAbort = () => this.settle(id, defaultAnswer);
      signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.waiting.set(id, { question: full, resolve, cleanup });
      this.options.asked(full);
    });
  }

  /** The person's answer. A refused answer (see `check`) leaves the question waiting. */
  answer(id: string, answer: A): AnswerOutcome<P> {
    const waiting = this.waiting.get(id);
    if (!waiting || waiting.question.deadline < this.now()) return { kind: 'unknown' };
    const checked = this.options.check?.(waiting.question, answer) ?? { ok: true as const, answer };
    if (!checked.ok) return { kind: 'refused', problem: checked.problem };
    this.settle(id, checked.answer);
    return { kind: 'settled' };
  }

  /** Takes a waiting question down with the default answer; false when it was not waiting. */
  cancel(id: string): boolean {
    if (!this.waiting.has(id)) return false;
    this.settle(id, this.options.defaultAnswer);
    return true;
  }

  /** A waiting question (undefined when unknown or finished). */
  get(id: string): Q | undefined {
    return this.waiting.get(id)?.question;
  }

  has(id: string): boolean {
    return this.waiting.has(id);
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Questions still waiting, oldest first (a reloaded window shows them again). */
  requests(): Q[] {
    return [...this.waiting.values()].map((w) => w.question);
  }

  private settle(id: string, answer: A): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    waiting.cleanup();
    waiting.resolve(answer);
    this.options.settled(waiting.question, answer);
  }

  /** Settles every waiting question with the default answer. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    for (const id of [...this.waiting.keys()]) this.settle(id, this.options.defaultAnswer);
  }
}
