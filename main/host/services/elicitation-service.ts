import type { ElicitationRequestData } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { HostEvents } from '../events';
import type { JsonSchemaValidator } from '../json-schema';
import { DisposableStore, trackDisposable, markAsDisposed, type Disposable } from '../lifecycle';
import { elicitationAnswer, elicitationQuestions, elicitationResponder, type ElicitationAction, type ElicitationQuestions } from '../servers/app-elicitation';
import { checkElicitationAnswer, type CheckedAnswer } from '../servers/elicitation-answer';
import type { ElicitationBroker, ElicitationResponder } from '../servers/elicitation';

/**
 * Who answers a server that asks the person for input. In the app (and browser mode) every
 * question is an `elicitation.request` — one that belongs to a chat tool call says so and is shown
 * with that call, any other in the general dialog. The CLI has no dialog: it installs its own
 * responder (`--answer`). Routing to the right request happens below, per connection.
 */
export class ElicitationService implements Disposable {
  private readonly owned = new DisposableStore();
  private readonly dialog: ElicitationQuestions | undefined;

  constructor(
    private readonly broker: ElicitationBroker,
    events: HostEvents,
    private readonly validator: JsonSchemaValidator,
    interactive: boolean,
  ) {
    if (interactive) {
      this.dialog = this.owned.add(elicitationQuestions(events, validator));
      this.owned.add(broker.respondWith(elicitationResponder(this.dialog)));
    }
    trackDisposable(this);
  }

  /** Questions still waiting for the person (a reloaded window shows them again). */
  pending(): ElicitationRequestData[] {
    return this.dialog?.requests() ?? [];
  }

  /**
   * The person's answer. Unknown or finished ids are ignored (false). An accepted form that does
   * not fit the schema the server asked with is refused with BAD_REQUEST naming each field; the
   * question keeps waiting for a better answer.
   */
  respond(id: string, action: ElicitationAction, content?: Record<string, unknown>): boolean {
    const outcome = this.dialog?.answer(id, elicitationAnswer(action, content)) ?? { kind: 'unknown' as const };
    if (outcome.kind === 'refused') {
      throw new HarborError('BAD_REQUEST', `The answer does not fit what the server asked for: ${outcome.problem.message}.`, undefined, { fields: outcome.problem.fields });
    }
    return outcome.kind === 'settled';
  }

  /** Checks a form answer against the schema a server asked with (for a front door's own responder). */
  checkAnswer(requestedSchema: unknown, content: unknown): CheckedAnswer {
    return checkElicitationAnswer(this.validator, requestedSchema, content);
  }

  /** Answers every server question with `responder` until the returned disposable is disposed (the CLI's `--answer`). */
  respondWith(responder: ElicitationResponder): Disposable {
    return this.broker.respondWith(responder);
  }

  /** Resolves true once `server` reports the page `elicitationId` finished; false when `signal` aborts first. */
  whenPageDone(server: string, elicitationId: string, signal: AbortSignal): Promise<boolean> {
    return this.broker.whenComplete(server, elicitationId, signal);
  }

  async dispose(): Promise<void> {
    markAsDisposed(this);
    await this.owned.dispose();
  }
}
