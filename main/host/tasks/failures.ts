import { ProtocolError } from '@modelcontextprotocol/client';
import type { TaskError } from '../../../preload/contract';

/** JSON-RPC "invalid params": both task specifications answer an unknown or expired task id with it. */
const INVALID_PARAMS = -32602;

/** The JSON-RPC error a server answered with, wherever it sits along `error`'s causes. */
export function jsonRpcErrorOf(error: unknown): TaskError | undefined {
  for (let current: unknown = error, depth = 0; current !== undefined && depth < 8; depth += 1) {
    if (current instanceof ProtocolError) {
      return { code: current.code, message: current.message.replace(/^MCP error -?\d+: /, ''), ...(current.data !== undefined ? { data: current.data } : {}) };
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/** The server says it has no such task (it restarted, or the task expired and was discarded). */
export function isUnknownTask(error: unknown): boolean {
  return jsonRpcErrorOf(error)?.code === INVALID_PARAMS;
}
