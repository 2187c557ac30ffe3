import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { proxyTransport } from './transport-proxy';

/** Wraps a transport so every message in and out is seen by `observe`, without changing what the SDK sees. */
export function tapTransport<T extends Transport>(
  transport: T,
  observe: (direction: 'out' | 'in', message: JSONRPCMessage) => void,
): T {
  return proxyTransport(transport, {
    send: (message, options, forward) => {
      observe('out', message);
      return forward(message, options);
    },
    receive: (message, deliver) => {
      observe('in', message);
      deliver();
    },
  });
}
