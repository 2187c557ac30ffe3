import type { Client } from '@modelcontextprotocol/client';
import { isPlainObject } from '../servers/task-wire/shapes';

type RegisteredHandler = (request: { jsonrpc: '2.0'; id: string; method: string; params?: Record<string, unknown> }, ctx: unknown) => Promise<unknown>;

/**
 * The handler the client runs for a server's `method` (elicitation/create, and sampling/roots
 * where they are offered), with the SDK's own checks around it (its `_wrapHandler`). SDK 2.4.0
 * reaches it the same way for `input_required` rounds, but keeps the accessor protected: this is
 * the one place Harbor reads it.
 */
function registeredHandler(client: Client, method: string): RegisteredHandler | undefined {
  const access = client as unknown as { _getRequestHandler?: (method: string) => RegisteredHandler | undefined };
  return access._getRequestHandler?.(method);
}

/** An input request the client has no handler for (a capability Harbor does not offer). */
export class UnanswerableInput extends Error {
  constructor(
    readonly key: string,
    readonly method: string,
  ) {
    super(`Harbor cannot answer "${method}" (input "${key}"): it does not offer that to this server.`);
    this.name = 'UnanswerableInput';
  }
}

/**
 * Answers one of a task's `inputRequests` exactly as the same request from a server would be
 * answered — an elicitation reaches the person through the same dialog, the same checks and the
 * same routing (the caller runs this inside the request the question belongs to) — and returns
 * the response to send back in `tasks/update`. The context mirrors the SDK's for embedded
 * requests: the key as id, the caller's abort, no related requests.
 */
export async function answerInputRequest(client: Client, key: string, entry: unknown, signal: AbortSignal): Promise<unknown> {
  const method = isPlainObject(entry) && typeof entry.method === 'string' ? entry.method : '';
  const handler = method ? registeredHandler(client, method) : undefined;
  if (!handler) throw new UnanswerableInput(key, method || '(no method)');
  const params = isPlainObject(entry) && isPlainObject(entry.params) ? entry.params : undefined;
  const unavailable = () => {
    throw new Error('Not available while answering a task input request.');
  };
  const ctx = { mcpReq: { id: key, method, _meta: params?._meta, signal, send: unavailable, notify: unavailable } };
  return handler({ jsonrpc: '2.0', id: key, method, ...(params ? { params } : {}) }, ctx);
}
