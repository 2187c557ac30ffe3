import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { toDisposable, type Disposable } from '../lifecycle';
import type { RequestScope } from './request-scope';

export interface ElicitationContext {
  /** Aborted when the server (or the request it belongs to) gives up. */
  readonly signal: AbortSignal;
  /** The request of Harbor's the question belongs to, when that can be told. */
  readonly request?: RequestScope;
  /**
   * A page of an "open this page first" error (-32042): the request has already failed, and its
   * error names the page, so a front door that only prints pages need not print it again.
   */
  readonly afterFailure?: boolean;
}

export type ElicitationResponder = (server: string, request: ElicitRequest['params'], context: ElicitationContext) => Promise<ElicitResult>;

/** Completion notices remembered for a waiter that starts listening just after one arrived. */
const REMEMBERED_COMPLETIONS = 64;

/**
 * Routes a server's request for input to whoever can answer it: the app's questions (a dialog),
 * the CLI (`--answer`), or nobody — then the server gets a real `decline`, never a hang. The last
 * responder installed answers; disposing it gives the word back to the one before. Also carries a
 * server's `notifications/elicitation/complete` to whoever waits for a page to be finished.
 */
export class ElicitationBroker {
  private readonly responders: ElicitationResponder[] = [];
  private readonly waiters = new Set<{ server: string; elicitationId: string; done: () => void }>();
  private readonly completed = new Set<string>();

  respondWith(responder: ElicitationResponder): Disposable {
    this.responders.push(responder);
    return toDisposable(() => {
      const index = this.responders.lastIndexOf(responder);
      if (index >= 0) this.responders.splice(index, 1);
    });
  }

  handle(server: string, request: ElicitRequest['params'], context: ElicitationContext): Promise<ElicitResult> {
    const responder = this.responders.at(-1);
    if (!responder) return Promise.resolve({ action: 'decline' });
    return responder(server, request, context);
  }

  /** The server says the URL-mode elicitation `elicitationId` is finished. */
  complete(server: string, elicitationId: string): void {
    const key = JSON.stringify([server, elicitationId]);
    if (this.completed.size >= REMEMBERED_COMPLETIONS) this.completed.delete(this.completed.values().next().value!);
    this.completed.add(key);
    for (const waiter of [...this.waiters]) if (waiter.server === server && waiter.elicitationId === elicitationId) waiter.done();
  }

  /** Resolves true once `server` reports `elicitationId` finished; false when `signal` aborts first. */
  whenComplete(server: string, elicitationId: string, signal: AbortSignal): Promise<boolean> {
    if (this.completed.has(JSON.stringify([server, elicitationId]))) return Promise.resolve(true);
    if (signal.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const finish = (result: boolean) => {
        this.waiters.delete(waiter);
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const waiter = { server, elicitationId, done: () => finish(true) };
      const onAbort = () => finish(false);
      this.waiters.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
