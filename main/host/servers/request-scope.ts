import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ElicitationOrigin } from '../../../preload/contract';
import { proxyTransport } from './transport-proxy';

/**
 * One request Harbor made to a server (a tool call, a resource read, a prompt), and whom it was
 * made for: a chat tool call has an origin, a manual run none.
 */
export interface RequestScope {
  readonly id: string;
  readonly server: string;
  /** "calling tool ask_name" */
  readonly action: string;
  readonly origin?: ElicitationOrigin;
  /** Aborted when the request has finished, however it ended: a question it left open is moot. */
  readonly ended: AbortSignal;
}

/**
 * Which request the code running now works for. A server's question for the person is answered in
 * the request it belongs to: the SDK fulfils a modern server's `input_required` inside the call
 * that got it, and a legacy Streamable HTTP server's request arrives on the response stream of
 * the POST it relates to — both run in the async context of that request, so the scope travels
 * with them. Nothing else carries a scope: connections start outside any (see `outsideAnyRequest`).
 */
const current = new AsyncLocalStorage<RequestScope>();

/**
 * Why a request's `ended` signal fired: one reason for all of them. `abort()` without one builds
 * a DOMException (with its stack) on every request; what listens to `ended` only needs to know
 * that it fired.
 */
const REQUEST_ENDED = new DOMException('The request has ended.', 'AbortError');

/**
 * The scope of a request being made now; `finish()` ends it. Its `ended` signal (and its id) are
 * made the first time something reads them (a server's question during the call, a check after
 * it): most requests end without anyone asking, and building an AbortController and firing its
 * abort event, or drawing a random UUID, on every call cost more than the rest of the scope
 * together. Read after `finish()`, `ended` is already aborted.
 */
export class RunningRequestScope implements RequestScope {
  readonly origin?: ElicitationOrigin;
  private uuid: string | undefined;
  private controller: AbortController | undefined;
  private finished = false;

  constructor(
    readonly server: string,
    readonly action: string,
    origin?: ElicitationOrigin,
  ) {
    if (origin) this.origin = origin;
  }

  get id(): string {
    return (this.uuid ??= randomUUID());
  }

  get ended(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.finished) this.controller.abort(REQUEST_ENDED);
    }
    return this.controller.signal;
  }

  finish(): void {
    this.finished = true;
    this.controller?.abort(REQUEST_ENDED);
  }
}

export function inRequestScope<T>(scope: RequestScope, run: () => T): T {
  return current.run(scope, run);
}

/** The request the running code belongs to, if it can tell. */
export function currentRequestScope(): RequestScope | undefined {
  return current.getStore();
}

/**
 * Runs `run` outside any request: a connection started lazily by a call must not make every
 * later message of its process look like part of that call.
 */
export function outsideAnyRequest<T>(run: () => T): T {
  return current.exit(run);
}

/** Requests whose response has not arrived yet, kept at most (a server may never answer a cancelled one). */
const MAX_AWAITED = 1000;

/**
 * Wraps a transport so each response is handled in the scope of the request it answers (by its
 * JSON-RPC id, the one link every transport has): the SDK's `input_required` rounds then run in
 * the call's own scope whatever the transport. A message that answers nothing — a server's own
 * request or notification — keeps the context the transport delivered it in when the wire links
 * it to a request (`linkedOnWire`: Streamable HTTP's per-request streams), and gets none on stdio,
 * where nothing on the wire says which request it belongs to.
 */
export function scopeTransport<T extends Transport>(transport: T, options: { readonly linkedOnWire: boolean }): T {
  const awaited = new Map<string | number, RequestScope>();
  return proxyTransport(transport, {
    send: (message, sendOptions, forward) => {
      const scope = current.getStore();
      if (scope && 'method' in message && 'id' in message && message.id !== undefined) {
        if (awaited.size >= MAX_AWAITED) awaited.delete(awaited.keys().next().value!);
        awaited.set(message.id, scope);
      }
      return forward(message, sendOptions);
    },
    receive: (message, deliver) => {
      const answers = !('method' in message) && 'id' in message ? message.id : undefined;
      const scope = answers !== undefined ? awaited.get(answers) : undefined;
      if (answers !== undefined) awaited.delete(answers);
      // A final answer (most responses) settles the request's promise, and what awaits it resumes
      // in its own context whatever this one is: only an `input_required` round, which the SDK
      // fulfils while handling the message, needs the request's scope entered here.
      if (scope && asksForInput(message)) current.run(scope, deliver);
      else if (scope && (options.linkedOnWire || current.getStore() === undefined)) deliver();
      else if (answers !== undefined || !options.linkedOnWire) current.exit(deliver);
      else deliver();
    },
  });
}

/** A 2026-07-28 `input_required` result: the server asks for input before it answers the request. */
function asksForInput(message: JSONRPCMessage): boolean {
  const result = 'result' in message ? (message.result as { resultType?: unknown } | undefined) : undefined;
  return result?.resultType === 'input_required';
}
