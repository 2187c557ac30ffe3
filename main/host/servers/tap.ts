import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/**
 * Wraps a transport so every message in and out is seen by `observe`, without changing what the
 * SDK sees: a Proxy forwards every other property and method (HTTP transports expose extras such
 * as setProtocolVersion and finishAuth that the Client and the OAuth flow call).
 */
export function tapTransport<T extends Transport>(
  transport: T,
  observe: (direction: 'out' | 'in', message: JSONRPCMessage) => void,
): T {
  const send = (message: JSONRPCMessage, options?: unknown) => {
    observe('out', message);
    return (transport.send as (m: JSONRPCMessage, o?: unknown) => Promise<void>).call(transport, message, options);
  };
  // Bound once per method: the SDK reads transport members on every message.
  const bound = new Map<PropertyKey, { fn: unknown; bound: unknown }>();
  return new Proxy(transport, {
    get(target, prop, _receiver) {
      if (prop === 'send') return send;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const cached = bound.get(prop);
      if (cached?.fn === value) return cached.bound;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      bound.set(prop, { fn: value, bound: fn });
      return fn;
    },
    set(target, prop, value: unknown) {
      if (prop === 'onmessage' && typeof value === 'function') {
        const handler = value as (message: JSONRPCMessage, extra?: unknown) => void;
        return Reflect.set(target, prop, (message: JSONRPCMessage, extra?: unknown) => {
          observe('in', message);
          handler(message, extra);
        });
      }
      return Reflect.set(target, prop, value);
    },
  });
}
