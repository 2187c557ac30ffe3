import type { ConsentChoice, ConsentRequest } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { PendingQuestions } from '../pending-questions';
import { lookalikeProblems } from '../registry/lookalike';

/**
 * The consent questions of the one queue (pending-questions.ts). Every question names what looks
 * like something else about its server — a name or host in mixed scripts (#27.12) — so each
 * dialog shows it, whoever asks (a call, a launch, a secret, a harbor:// link).
 */
export class ConsentQuestions extends PendingQuestions<ConsentRequest, ConsentChoice> {
  override ask(question: Omit<ConsentRequest, 'id' | 'deadline'>, signal?: AbortSignal): Promise<ConsentChoice> {
    const lookalike = lookalikeProblems(question.server, question.remote?.url);
    return super.ask(lookalike.length ? { ...question, lookalike } : question, signal);
  }
}

/** How long a consent question waits before it counts as denied. */
export const CONSENT_TIMEOUT_MS = 5 * 60_000;

/**
 * Consent questions: each goes out as `consent.request` and ends exactly once as
 * `consent.resolved`. Consent defaults to no: a reply for an unknown or expired id, or one the
 * request did not offer, is ignored; the deadline passing, a cancel, the asker's abort or disposal
 * is a denial. One such queue per Host, owned by the gate: tool calls, launches, the secrets a
 * launch carries and the desktop shell's harbor:// links all ask through it.
 */
export function consentQuestions(events: Pick<HostEvents, 'emit'>, timeoutMs = CONSENT_TIMEOUT_MS, now: () => number = Date.now): ConsentQuestions {
  return new ConsentQuestions({
    timeoutMs,
    now,
    defaultAnswer: 'deny',
    asked: (request) => events.emit('consent.request', request),
    settled: (request, decision) => events.emit('consent.resolved', { id: request.id, decision }),
    check: (request, decision) =>
      request.options.includes(decision) ? { ok: true, answer: decision } : { ok: false, problem: `"${decision}" was not offered for this request.` },
  });
}
