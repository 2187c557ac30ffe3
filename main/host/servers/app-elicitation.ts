import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationRequestData } from '../../../preload/contract';
import type { HostEvents } from '../events';
import type { JsonSchemaValidator } from '../json-schema';
import { PendingQuestions } from '../pending-questions';
import { checkElicitationAnswer } from './elicitation-answer';
import type { ElicitationContext, ElicitationResponder } from './elicitation';
import type { SchemaProblem } from '../schema-problems';

export type ElicitationAction = ElicitResult['action'];

/** Why an answer was refused: what is wrong, as a sentence and field by field. */
export interface RefusedAnswer {
  readonly message: string;
  readonly fields: readonly SchemaProblem[];
}

/** The server questions of the one queue (pending-questions.ts). */
export type ElicitationQuestions = PendingQuestions<ElicitationRequestData, ElicitResult, RefusedAnswer>;

/**
 * The app's answer to a server asking for input: an `elicitation.request` event (carrying the
 * chat call it belongs to, if any) that the UI shows, answered by `elicitation.respond`, ended by
 * `elicitation.resolved`. Closing the dialog, the server giving up (its request aborted) or the
 * deadline passing is a `cancel` — never a hang. An accepted form is checked against the schema
 * the server asked with; a URL-mode answer never carries content.
 */
export function elicitationQuestions(events: Pick<HostEvents, 'emit'>, validator: JsonSchemaValidator, timeoutMs = 10 * 60_000, now: () => number = Date.now): ElicitationQuestions {
  return new PendingQuestions<ElicitationRequestData, ElicitResult, RefusedAnswer>({
    timeoutMs,
    now,
    defaultAnswer: { action: 'cancel' },
    asked: (request) => events.emit('elicitation.request', request),
    settled: (request, result) => events.emit('elicitation.resolved', { id: request.id, action: result.action }),
    check: (request, result) => {
      if (result.action !== 'accept' || request.mode === 'url') return { ok: true, answer: { action: result.action } };
      const checked = checkElicitationAnswer(validator, request.requestedSchema, result.content);
      if (!checked.ok) return { ok: false, problem: { message: checked.message, fields: checked.problems } };
      return { ok: true, answer: { action: 'accept', content: checked.content } };
    },
  });
}

/** Answers servers by asking the person: each server request becomes a question of `questions`. */
export function elicitationResponder(questions: ElicitationQuestions): ElicitationResponder {
  return (server: string, request: ElicitRequest['params'], context: ElicitationContext): Promise<ElicitResult> => {
    const mode = (request as { mode?: string }).mode === 'url' ? 'url' : 'form';
    const origin = context.request?.origin;
    const question: Omit<ElicitationRequestData, 'id' | 'deadline'> = {
      server,
      mode,
      message: request.message,
      ...(mode === 'form' && 'requestedSchema' in request ? { requestedSchema: request.requestedSchema as Record<string, unknown> } : {}),
      ...(mode === 'url' && 'url' in request ? { url: String(request.url) } : {}),
      ...(origin ? { conversationId: origin.conversationId, turnId: origin.turnId, ...(origin.toolCallId ? { toolCallId: origin.toolCallId } : {}) } : {}),
    };
    return questions.ask(question, context.signal);
  };
}

/** The person's answer as the queue takes it: content only with an accept. */
export function elicitationAnswer(action: ElicitationAction, content?: Record<string, unknown>): ElicitResult {
  return action === 'accept' && content ? { action, content: content as ElicitResult['content'] } : { action };
}
