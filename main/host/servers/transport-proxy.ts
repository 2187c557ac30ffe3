import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

export interface TransportHooks {
  /** Every outgoing message; `forward` sends it on. */
  send?(message: JSONRPCMessage, options: unknown, forward: (message: JSONRPCMessage, options?: unknown) => Promise<void>): Promise<void>;
  /** Every incoming message; `deliver` hands it (or the `replacement` given) to the SDK's handler. */
  receive?(message: JSONRPCMessage, deliver: (replacement?: JSONRPCMessage) => void): void;
  /** Once the SDK listens: `inject` hands the SDK a message that did not come from the wire. */
  attach?(inject: (message: JSONRPCMessage) => void): void;
}

/**
 * Wraps a transport so `hooks` see every message in and out, without changing what the SDK sees:
 * a Proxy forwards every other property and method (HTTP transports expose extras such as
 * setProtocolVersion and finishAuth that the Client and the OAuth flow call).
 */
export function proxyTransport<T extends Transport>(transport: T, hooks: TransportHooks): T {
  const forward = (message: JSONRPCMessage, options?: unknown) =>
    (transport.send as (m: JSONRPCMessage, o?: unknown) => Promise<void>).call(transport, message, options);
  const send = (message: JSONRPCMessage, options?: unknown) => (hooks.send ? hooks.send(message, options, forward) : forward(message, options));
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
      if (prop === 'onmessage' && typeof value === 'function' && (hooks.receive || hooks.attach)) {
        const handler = value as (message: JSONRPCMessage, extra?: unknown) => void;
        hooks.attach?.((message) => handler(message));
        const receive = hooks.receive;
        if (!receive) return Reflect.set(target, prop, value);
        return Reflect.set(target, prop, (message: JSONRPCMessage, extra?: unknown) => receive(message, (replacement = message) => handler(replacement, extra)));
      }
      return Reflect.set(target, prop, value);
    },
  });
}
