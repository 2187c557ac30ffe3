import { LOG_LEVEL_META_KEY, type Client, type LoggingLevel } from '@modelcontextprotocol/client';
import type { ConnectionInfo } from './connection-types';

/**
 * Legacy servers keep one level per connection (`logging/setLevel`), sent on connect and whenever
 * the person changes it. Without a level set Harbor leaves the server's own default alone; a server
 * that does not offer logging is not asked. A refusal is not a failure of the connection.
 */
export async function applyLegacyLogLevel(client: Client, info: ConnectionInfo, level: LoggingLevel | undefined, timeoutMs: number): Promise<void> {
  if (info.era !== 'legacy' || !info.capabilities?.logging || level === undefined) return;
  await client.setLoggingLevel(level, { timeout: timeoutMs }).catch(() => undefined);
}

/**
 * Modern servers take the level per request (`io.modelcontextprotocol/logLevel` in `_meta`) and send
 * log messages only for requests that carry it: the params of one request, with the level added.
 */
export function withLogLevel<P extends object>(params: P, info: ConnectionInfo, level: LoggingLevel | undefined): P {
  if (info.era !== 'modern' || level === undefined) return params;
  const meta = (params as { _meta?: Record<string, unknown> })._meta;
  return { ...params, _meta: { ...meta, [LOG_LEVEL_META_KEY]: level } };
}
