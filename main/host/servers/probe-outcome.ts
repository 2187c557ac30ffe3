import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * Watches one connect's era probe on the wire, to tell apart the two reasons a client ends up in
 * the legacy era after a `server/discover` probe went unanswered within its timeout:
 * - a legacy server that ignores unknown methods: the probe is never answered (or answered with
 *   an error). That verdict is a finding; cached, it spares the next connect the probe's wait.
 * - a server that was still starting (an `npx` download, a slow interpreter): the answer comes,
 *   late, with a result. The SDK has already fallen back to `initialize`, which a modern server
 *   also answers, so the connection works in the legacy era. Cached, that verdict would keep a
 *   modern server legacy for good; so it is not cached, and the next connect asks again.
 * A stdio server answers in order: by the time `initialize` is answered, a late probe answer
 * (which was sent first) has arrived.
 */
export class ProbeOutcome {
  private probeId: string | number | undefined;
  private fellBack = false;
  private lateResult = false;

  observe(direction: 'out' | 'in', message: JSONRPCMessage): void {
    const m = message as { method?: unknown; id?: unknown; result?: unknown };
    if (direction === 'out') {
      if (m.method === 'server/discover' && (typeof m.id === 'string' || typeof m.id === 'number')) this.probeId = m.id;
      else if (m.method === 'initialize' && this.probeId !== undefined) this.fellBack = true;
    } else if (this.fellBack && this.probeId !== undefined && m.id === this.probeId && m.result !== undefined) {
      this.lateResult = true;
    }
  }

  /** The server answered the probe with a result after the client had fallen back: it was only slow. */
  get answeredLate(): boolean {
    return this.lateResult;
  }
}
