import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * The JSON text a transport wrote or read for a message, where it has one (stdio: the line it
 * wrote to the server's stdin, the line it parsed from stdout). The traffic log keeps that text
 * instead of the message: no second JSON.stringify when it is read, no walk to measure its size,
 * and one flat string held per entry instead of the message's objects (which the garbage
 * collector would trace while the log holds them). Keyed weakly: a message forgotten everywhere
 * else is forgotten here.
 */
const texts = new WeakMap<JSONRPCMessage, string>();

export function noteWireText(message: JSONRPCMessage, text: string): void {
  texts.set(message, text);
}

export function wireTextOf(message: JSONRPCMessage): string | undefined {
  return texts.get(message);
}
