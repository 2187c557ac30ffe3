import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { isPlainObject } from './shapes';

export type JsonRpcId = string | number;

export interface WireRequest {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export interface WireNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export type WireResponse =
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly result: Record<string, unknown> }
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly error: { code: number; message: string; data?: unknown } };

/** The three kinds of JSON-RPC message, told apart by their members (as the spec defines them). */
export function asRequest(message: JSONRPCMessage): WireRequest | undefined {
  const m = message as Partial<WireRequest>;
  return typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number') ? (message as unknown as WireRequest) : undefined;
}

export function asNotification(message: JSONRPCMessage): WireNotification | undefined {
  const m = message as Partial<WireRequest>;
  return typeof m.method === 'string' && m.id === undefined ? (message as unknown as WireNotification) : undefined;
}

export function asResponse(message: JSONRPCMessage): WireResponse | undefined {
  const m = message as Partial<WireRequest> & { result?: unknown; error?: unknown };
  if (m.method !== undefined || (typeof m.id !== 'string' && typeof m.id !== 'number')) return undefined;
  return isPlainObject(m.result) || isPlainObject(m.error) ? (message as unknown as WireResponse) : undefined;
}

export function paramsOf(message: { readonly params?: unknown }): Record<string, unknown> {
  return isPlainObject(message.params) ? message.params : {};
}

export function errorResponse(id: JsonRpcId, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage;
}

export function resultResponse(id: JsonRpcId, result: Record<string, unknown>): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result } as JSONRPCMessage;
}

/** JSON-RPC "invalid params": what a task id nobody knows gets, as both task specifications ask. */
export const INVALID_PARAMS = -32602;

/** A map that forgets its oldest entries past `limit`: ids of requests whose answers may never come. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.limit) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
