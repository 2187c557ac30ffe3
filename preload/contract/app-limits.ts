/**
 * What one MCP App may send through its bridge, and the one limiter both ends of the bridge apply:
 * the app's sandbox proxy (the first line: a flood stops there, before it reaches Harbor's page) and
 * the page's transport (in case the proxy were ever bypassed). Over a limit of rate or size the app
 * is stopped; a request while one with the same key (a tool's name, a resource's URI) still waits,
 * or while the app already waits for `pendingPerApp`, is answered with an error at once.
 */

/** Sent proxy → page only: the proxy stopped the app for going over `params.limit`. */
export const APP_STOPPED_METHOD = 'harbor/app-stopped';

export type AppLimit = 'rate' | 'size' | 'bytes' | 'shape';

export interface AppLimits {
  /** Messages an app may send per second (kept up; a burst of up to one second's worth passes). */
  readonly messagesPerSecond: number;
  /** The largest single message (its strings, keys and binary data, counted roughly as bytes). */
  readonly messageBytes: number;
  /** What an app may send per second, all messages together (kept up; a burst of up to one second's worth passes). */
  readonly bytesPerSecond: number;
  /** Requests an app may have waiting for an answer at once (one per key). */
  readonly pendingPerApp: number;
}

export const APP_LIMITS: AppLimits = {
  messagesPerSecond: 200,
  messageBytes: 4 * 1024 * 1024,
  bytesPerSecond: 16 * 1024 * 1024,
  pendingPerApp: 4,
};

export type AppLimitVerdict =
  | { readonly kind: 'pass' }
  /** Not delivered: `reply` (a JSON-RPC error for the request) goes back to the app. */
  | { readonly kind: 'refuse'; readonly reply: unknown }
  | { readonly kind: 'stop'; readonly limit: AppLimit };

export interface AppLimiter {
  /** A message from the app. */
  inbound(data: unknown): AppLimitVerdict;
  /** A message to the app (an answer frees its request's key). */
  outbound(data: unknown): void;
}

/**
 * The limiter of one app. Self-contained (no imports, no outer names): the proxy page runs it from
 * its source text (Function.prototype.toString), the page's transport imports it.
 */
export function createAppLimiter(limits: AppLimits, now: () => number): AppLimiter {
  // Two token buckets, full at the start and refilled at the rate: an app may send a second's worth
  // at once and then keep to the rate. (A window reset each second stopped an app that kept well under
  // the rate whenever the machine's jitter delivered two of its bursts less than a second apart.)
  let last: number | undefined;
  let messages = limits.messagesPerSecond;
  let bytes = limits.bytesPerSecond;
  const keyOfId = new Map<string, string>();
  const waiting = new Set<string>();

  /** Returned by sizeOf for a value JSON cannot hold: a Map, Set, Error, RegExp, Date… carry data its keys never show. */
  const NOT_JSON = -1;
  // Roughly the bytes of a structured-cloned value, walked without recursion and given up past `cap`.
  const sizeOf = (value: unknown, cap: number): number => {
    let total = 0;
    const stack: unknown[] = [value];
    const seen = new Set<object>();
    while (stack.length > 0 && total <= cap) {
      const v = stack.pop();
      if (typeof v === 'string') total += v.length;
      else if (typeof v !== 'object' || v === null) total += 8;
      else if (seen.has(v)) total += 8;
      else {
        seen.add(v);
        if (v instanceof ArrayBuffer) total += v.byteLength;
        else if (ArrayBuffer.isView(v)) total += v.byteLength;
        else if (typeof Blob !== 'undefined' && v instanceof Blob) total += v.size;
        else if (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return NOT_JSON;
        else if (Array.isArray(v)) {
          total += v.length;
          if (total > cap) break;
          for (let i = 0; i < v.length; i += 1) stack.push(v[i]);
        } else {
          const keys = Object.keys(v);
          total += keys.length;
          for (const key of keys) {
            total += key.length;
            if (total > cap) break;
            stack.push((v as Record<string, unknown>)[key]);
          }
        }
      }
    }
    return total;
  };
  const idKey = (id: unknown) => (typeof id === 'string' || typeof id === 'number' ? `${typeof id}:${String(id)}` : undefined);
  const field = (object: unknown, name: string): unknown => (typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[name] : undefined);

  return {
    inbound(data) {
      const t = now();
      const elapsed = last === undefined ? 0 : Math.max(0, t - last) / 1000;
      last = t;
      messages = Math.min(limits.messagesPerSecond, messages + elapsed * limits.messagesPerSecond);
      bytes = Math.min(limits.bytesPerSecond, bytes + elapsed * limits.bytesPerSecond);
      messages -= 1;
      if (messages < 0) return { kind: 'stop', limit: 'rate' };
      const size = sizeOf(data, limits.messageBytes);
      if (size === NOT_JSON) return { kind: 'stop', limit: 'shape' };
      if (size > limits.messageBytes) return { kind: 'stop', limit: 'size' };
      bytes -= size;
      if (bytes < 0) return { kind: 'stop', limit: 'bytes' };
      const method = field(data, 'method');
      const id = field(data, 'id');
      const request = idKey(id);
      if (typeof method !== 'string' || request === undefined) return { kind: 'pass' };
      const params = field(data, 'params');
      const name = field(params, 'name');
      const uri = field(params, 'uri');
      const key = `${method} ${typeof name === 'string' ? name : typeof uri === 'string' ? uri : ''}`;
      let problem: string | undefined;
      if (keyOfId.has(request)) problem = 'a request with this id is still waiting';
      else if (waiting.has(key)) problem = `the app is already waiting for ${key.trim()}; Harbor takes one at a time`;
      else if (waiting.size >= limits.pendingPerApp) problem = `the app is already waiting for ${waiting.size} requests; Harbor takes at most ${limits.pendingPerApp} at a time`;
      if (problem !== undefined) return { kind: 'refuse', reply: { jsonrpc: '2.0', id, error: { code: -32000, message: `Refused: ${problem}. Ask again once it is answered.` } } };
      waiting.add(key);
      keyOfId.set(request, key);
      return { kind: 'pass' };
    },
    outbound(data) {
      if (field(data, 'method') !== undefined) return;
      const request = idKey(field(data, 'id'));
      const key = request === undefined ? undefined : keyOfId.get(request);
      if (request === undefined || key === undefined) return;
      keyOfId.delete(request);
      waiting.delete(key);
    },
  };
}

/** The reason on a stopped app's card, after "This app was stopped: ". */
export function appStoppedReason(limit: AppLimit, limits: AppLimits = APP_LIMITS): string {
  const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
  if (limit === 'rate') return `it sent more than ${limits.messagesPerSecond} messages per second`;
  if (limit === 'size') return `it sent a message larger than ${mb(limits.messageBytes)}`;
  if (limit === 'shape') return 'it sent something that is not JSON (a Map, a Set, an Error, a RegExp or the like)';
  return `it sent more than ${mb(limits.bytesPerSecond)} per second`;
}
