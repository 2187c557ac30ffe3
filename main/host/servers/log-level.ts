import { LOG_LEVEL_META_KEY, type Client, type JSONRPCMessage, type LoggingLevel, type Transport } from '@modelcontextprotocol/client';
import type { ConnectionInfo } from './connection-types';
import { asRequest, paramsOf } from './task-wire/messages';
import { CLIENT_CAPABILITIES_META, isPlainObject } from './task-wire/shapes';
import { proxyTransport } from './transport-proxy';

/**
 * Legacy servers keep one level per connection (`logging/setLevel`), sent on connect and whenever
 * the person changes it. Without a level set Harbor leaves the server's own default alone; a server
 * that does not offer logging is not asked. A refusal is not a failure of the connection.
 */
export async function applyLegacyLogLevel(client: Client, info: ConnectionInfo, level: LoggingLevel | undefined, timeoutMs: number): Promise<void> {
  if (info.era !== 'legacy' || !info.capabilities?.logging || level === undefined) return;
  // Refused: the server keeps logging at its own level, and its log lines still arrive.
  await client.setLoggingLevel(level, { timeout: timeoutMs }).catch(() => undefined);
}

/** The requests that do a server's work, and so may log: these carry the person's level. */
const LEVELLED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

/**
 * Modern servers take the level per request (`io.modelcontextprotocol/logLevel` in `_meta`) and send
 * log messages only for requests that carry it. On the wire, so every way a request is made (a
 * plain call, a call that may become a task) carries it; a modern request is one that carries the
 * client's capabilities in its `_meta`, a legacy one keeps the level of `logging/setLevel`.
 */
export function carryLogLevel<T extends Transport>(transport: T, level: () => LoggingLevel | undefined): T {
  return proxyTransport(transport, { send: (message, options, forward) => forward(withLogLevel(message, level()), options) });
}

function withLogLevel(message: JSONRPCMessage, level: LoggingLevel | undefined): JSONRPCMessage {
  const request = asRequest(message);
  if (level === undefined || !request || !LEVELLED_METHODS.has(request.method)) return message;
  const params = paramsOf(request);
  const meta = params._meta;
  if (!isPlainObject(meta) || !isPlainObject(meta[CLIENT_CAPABILITIES_META])) return message;
  return { ...request, params: { ...params, _meta: { ...meta, [LOG_LEVEL_META_KEY]: level } } } as JSONRPCMessage;
}
