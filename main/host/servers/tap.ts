import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { proxyTransport } from './transport-proxy';

/** Wraps a transport so every message in and out is seen by `observe`, without changing what the SDK sees. */
export function tapTransport<T extends Transport>(
  transport: T,
  observe: (direction: 'out' | 'in', message: JSONRPCMessage) => void,
): T {
  return proxyTransport(transport, {
    // Seen once the transport took it: a transport that serialises it (stdio) has noted its text by then (wire-text.ts).
    send: (message, options, forward) => {
      const sent = forward(message, options);
      observe('out', message);
      return sent;
    },
    receive: (message, deliver) => {
      observe('in', message);
      deliver();
    },
  });
}
