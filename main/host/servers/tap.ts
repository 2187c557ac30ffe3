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
  return new Proxy(transport, {
    get(target, prop, _receiver) {
      if (prop === 'send') {
        return (message: JSONRPCMessage, options?: unknown) => {
          observe('out', message);
          return (target.send as (m: JSONRPCMessage, o?: unknown) => Promise<void>).call(target, message, options);
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
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
