import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationRequestData } from '../../../preload/contract';
import type { HostEvents } from '../events';
import type { JsonSchemaValidator } from '../json-schema';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { PendingQuestions, type AnswerOutcome } from '../pending-questions';
import { checkElicitationAnswer } from './elicitation-answer';
import type { ElicitationContext } from './elicitation';
import type { SchemaProblem } from '../json-schema';

export type ElicitationAction = ElicitResult['action'];

/** Why an answer was refused: what is wrong, as a sentence and field by field. */
export interface RefusedAnswer {
  readonly message: string;
  readonly fields: readonly SchemaProblem[];
}

/**
 * The app's answer to a server asking for input: an `elicitation.request` event (carrying the
 * chat call it belongs to, if any) that the UI shows, answered by `elicitation.respond`, ended by
 * `elicitation.resolved`. Closing the dialog, the server giving up (its request aborted) or the
 * deadline passing is a `cancel` — never a hang. An accepted form is checked against the schema
 * the server asked with; a URL-mode answer never carries content.
 */
export class InteractiveElicitation implements Disposable {
  private readonly questions: PendingQuestions<ElicitationRequestData, ElicitResult, RefusedAnswer>;

  constructor(events: HostEvents, validator: JsonSchemaValidator, timeoutMs = 10 * 60_000, now: () => number = Date.now) {
    trackDisposable(this);
    this.questions = new PendingQuestions<ElicitationRequestData, ElicitResult, RefusedAnswer>({
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

  readonly respond = (server: string, request: ElicitRequest['params'], context: ElicitationContext): Promise<ElicitResult> => {
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
    return this.questions.ask(question, context.signal);
  };

  /** The person's answer: settled, unknown (finished or never asked), or refused with what is wrong (the question keeps waiting). */
  answer(id: string, action: ElicitationAction, content?: Record<string, unknown>): AnswerOutcome<RefusedAnswer> {
    return this.questions.answer(id, action === 'accept' && content ? { action, content: content as ElicitResult['content'] } : { action });
  }

  pendingRequests(): ElicitationRequestData[] {
    return this.questions.requests();
  }

  dispose(): void {
    markAsDisposed(this);
    this.questions.dispose();
  }
}
