import type { SamplingAnswer, SamplingRequestData } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { PendingQuestions } from '../pending-questions';

/** What the person decided at one stage; `deny` is also what a deadline, an abort or shutting down means. */
export type ReviewDecision = Omit<SamplingAnswer, 'id'>;

const DENIED: ReviewDecision = { action: 'deny' };

/** How long a review stage waits for the person before it counts as denied. */
export const SAMPLING_REVIEW_TIMEOUT_MS = 5 * 60_000;

/** The sampling reviews of the one queue (pending-questions.ts). */
export type SamplingReview = PendingQuestions<SamplingRequestData, ReviewDecision, string>;

/**
 * The person's review of a server's sampling request, in the app (after VS Code's flow): first the
 * request — server, system prompt, messages, maxTokens — to approve, edit or deny; then the
 * model's answer, to send back (edited or not) or deny. Each stage is a question of the one queue
 * (`sampling.request` … `sampling.resolved`); an edit that does not fit is refused and the stage
 * keeps waiting; the deadline, the server's abort or shutting down is a denial.
 */
export function samplingReview(events: Pick<HostEvents, 'emit'>, timeoutMs = SAMPLING_REVIEW_TIMEOUT_MS, now: () => number = Date.now): SamplingReview {
  return new PendingQuestions<SamplingRequestData, ReviewDecision, string>({
    timeoutMs,
    now,
    defaultAnswer: DENIED,
    asked: (request) => events.emit('sampling.request', request),
    settled: (request, decision) => events.emit('sampling.resolved', { id: request.id, action: decision.action }),
    check: (request, decision) => checkDecision(request, decision),
  });
}

/** An edit must fit its stage: the request's fields before the model runs, only the answer after. */
function checkDecision(request: SamplingRequestData, decision: ReviewDecision): { ok: true; answer: ReviewDecision } | { ok: false; problem: string } {
  if (decision.action === 'deny') return { ok: true, answer: DENIED };
  if (request.stage === 'response') {
    if (decision.systemPrompt !== undefined || decision.messages !== undefined || decision.maxTokens !== undefined) {
      return { ok: false, problem: 'the model has already answered: only its answer ("text") can be edited now' };
    }
    return { ok: true, answer: { action: 'approve', ...(decision.text !== undefined ? { text: decision.text } : {}) } };
  }
  if (decision.text !== undefined) return { ok: false, problem: 'the model has not answered yet: there is no answer ("text") to edit' };
  if (decision.messages !== undefined && decision.messages.length !== request.messages.length) {
    return { ok: false, problem: `the request has ${request.messages.length} message(s) but the edit names ${decision.messages.length}` };
  }
  if (decision.maxTokens !== undefined && decision.maxTokens > request.maxTokens) {
    return { ok: false, problem: `maxTokens may be lowered, not raised above the server's ${request.maxTokens}` };
  }
  return { ok: true, answer: decision };
}
