import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { toDisposable, type Disposable } from '../lifecycle';

export type ElicitationResponder = (
  server: string,
  request: ElicitRequest['params'],
  context: { signal: AbortSignal },
) => Promise<ElicitResult>;

/**
 * Routes a server's request for input to whoever can answer it: the UI (a dialog), the CLI
 * (`--answer`), or nobody — then the server gets a real `decline`, never a hang.
 */
export class ElicitationBroker {
  private responder: ElicitationResponder | undefined;

  respondWith(responder: ElicitationResponder): Disposable {
    this.responder = responder;
    return toDisposable(() => {
      if (this.responder === responder) this.responder = undefined;
    });
  }

  handle(server: string, request: ElicitRequest['params'], context: { signal: AbortSignal }): Promise<ElicitResult> {
    if (!this.responder) return Promise.resolve({ action: 'decline' });
    return this.responder(server, request, context);
  }
}
