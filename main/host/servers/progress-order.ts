import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

type Deliver = (message: JSONRPCMessage, extra?: unknown) => void;

/**
 * Keeps a request's last progress notification from being lost behind its result.
 *
 * The SDK (2.4.0) dispatches a notification in a microtask but handles a response at once — and
 * handling a response removes the request's progress handler. When a transport hands over a
 * progress notification and the response right behind it in one go (one HTTP+SSE chunk, one
 * stdout read holding both lines), the notification's turn comes after its handler is gone, and
 * the progress is dropped as "unknown token". So a response that follows a progress
 * notification for the same request within one turn of the event loop is held back to the next
 * turn (and everything after it, so the order stays as sent); by then the notification was handled.
 */
export class ProgressFirstDelivery {
  private readonly held: Array<readonly [JSONRPCMessage, unknown]> = [];
  /** Progress tokens delivered in this turn, as strings (the SDK's token is the request id). */
  private readonly progressThisTurn = new Set<string>();
  private nextTurn: NodeJS.Immediate | undefined;

  constructor(private readonly deliver: Deliver) {}

  push(message: JSONRPCMessage, extra?: unknown): void {
    if (this.held.length > 0 || this.mustWait(message)) {
      this.held.push([message, extra]);
      this.scheduleNextTurn();
      return;
    }
    this.pass(message, extra);
  }

  /** Delivers everything held back now (the transport is closing: a result beats its last progress). */
  flush(): void {
    if (this.nextTurn) clearImmediate(this.nextTurn);
    this.nextTurn = undefined;
    this.progressThisTurn.clear();
    for (const [message, extra] of this.held.splice(0)) this.deliver(message, extra);
  }

  private pass(message: JSONRPCMessage, extra: unknown): void {
    const token = progressToken(message);
    if (token !== undefined) {
      this.progressThisTurn.add(token);
      this.scheduleNextTurn();
    }
    this.deliver(message, extra);
  }

  private mustWait(message: JSONRPCMessage): boolean {
    return this.progressThisTurn.size > 0 && !('method' in message) && 'id' in message && this.progressThisTurn.has(String(message.id));
  }

  private scheduleNextTurn(): void {
    this.nextTurn ??= setImmediate(() => this.onNextTurn());
  }

  private onNextTurn(): void {
    this.nextTurn = undefined;
    this.progressThisTurn.clear();
    while (this.held.length > 0) {
      const [message, extra] = this.held[0]!;
      if (this.mustWait(message)) {
        this.scheduleNextTurn();
        return;
      }
      this.held.shift();
      this.pass(message, extra);
    }
  }
}

function progressToken(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || message.method !== 'notifications/progress' || 'id' in message) return undefined;
  const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? String(token) : undefined;
}

/**
 * The transport as the SDK should see it: messages through a ProgressFirstDelivery, and a close
 * that first hands over whatever was held back.
 */
export function deliverProgressFirst<T extends Transport>(transport: T): T {
  let delivery: ProgressFirstDelivery | undefined;
  return new Proxy(transport, {
    set(target, prop, value: unknown) {
      if (prop === 'onmessage' && typeof value === 'function') {
        const ordered = new ProgressFirstDelivery(value as Deliver);
        delivery = ordered;
        return Reflect.set(target, prop, (message: JSONRPCMessage, extra?: unknown) => ordered.push(message, extra));
      }
      if (prop === 'onclose' && typeof value === 'function') {
        const onclose = value as () => void;
        return Reflect.set(target, prop, () => {
          delivery?.flush();
          onclose();
        });
      }
      return Reflect.set(target, prop, value);
    },
  });
}
