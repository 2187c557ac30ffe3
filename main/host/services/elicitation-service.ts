import type { ChatElicitationData, ElicitationRequestData } from '../../../preload/contract';
import type { ChatService } from '../chat/service';
import type { HostEvents } from '../events';
import { DisposableStore, trackDisposable, markAsDisposed, type Disposable } from '../lifecycle';
import { InteractiveElicitation } from '../servers/app-elicitation';
import type { ElicitationBroker, ElicitationResponder } from '../servers/elicitation';

/**
 * Who answers a server that asks the person for input. In the app (and browser mode) a question
 * during a chat tool call is shown with that call, any other (a tool run by hand, a resource read)
 * in the general dialog. The CLI has no dialog: it installs its own responder (`--answer`).
 */
export class ElicitationService implements Disposable {
  private readonly owned = new DisposableStore();
  private readonly dialog: InteractiveElicitation | undefined;

  constructor(
    private readonly broker: ElicitationBroker,
    private readonly chat: ChatService,
    events: HostEvents,
    interactive: boolean,
  ) {
    if (interactive) {
      this.dialog = this.owned.add(new InteractiveElicitation(events));
      this.owned.add(broker.respondWith(chat.elicitationResponder(this.dialog.respond)));
    }
    trackDisposable(this);
  }

  /** Questions still waiting for the person (a reloaded window shows them again). */
  pending(): { general: ElicitationRequestData[]; chat: ChatElicitationData[] } {
    return { general: this.dialog?.pendingRequests() ?? [], chat: this.chat.pendingElicitations() };
  }

  /** The person's answer in the general dialog; unknown or finished ids are ignored (false). */
  respond(id: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>): boolean {
    return this.dialog?.answer(id, action, content) ?? false;
  }

  /** Answers every server question with `responder` until the returned disposable is disposed (the CLI's `--answer`). */
  respondWith(responder: ElicitationResponder): Disposable {
    return this.broker.respondWith(responder);
  }

  async dispose(): Promise<void> {
    markAsDisposed(this);
    await this.owned.dispose();
  }
}
