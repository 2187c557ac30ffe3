/**
 * How a server's message finds the request it belongs to (main/host/servers/request-scope.ts):
 * a response by its JSON-RPC id on every transport; a server's own request by the stream it came
 * on (Streamable HTTP) or not at all (stdio); and InFlightRequests' rule when there is no link —
 * the only request in flight, or none.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { currentRequestScope, inRequestScope, outsideAnyRequest, RunningRequestScope, scopeTransport, type RequestScope } from '../../main/host/servers/request-scope';
import { InFlightRequests } from '../../main/host/servers/requests';

/** A transport that records what is sent and lets the test deliver messages. */
class FakeTransport implements Transport {
  readonly sent: JSONRPCMessage[] = [];
  onmessage?: (message: JSONRPCMessage, extra?: unknown) => void;
  async start(): Promise<void> {}
  async close(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

const scope = (action: string): RequestScope => new RunningRequestScope('s', action, { conversationId: action, turnId: 't' });

function wrapped(linkedOnWire: boolean) {
  const inner = new FakeTransport();
  const outer = scopeTransport(inner, { linkedOnWire });
  const seen: (string | undefined)[] = [];
  outer.onmessage = () => seen.push(currentRequestScope()?.action);
  return { inner, outer, seen };
}

describe('scopeTransport', () => {
  it('handles an input_required answer in the scope of the request it answers, whatever context delivers it', async () => {
    const { inner, outer, seen } = wrapped(false);
    await inRequestScope(scope('first'), () => outer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }));
    await inRequestScope(scope('second'), () => outer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} }));
    const inputRequired = { resultType: 'input_required', inputRequests: {} };
    // stdout delivers in whatever context the process was started in: here, an unrelated scope.
    inRequestScope(scope('launcher'), () => {
      inner.deliver({ jsonrpc: '2.0', id: 2, result: inputRequired });
      inner.deliver({ jsonrpc: '2.0', id: 1, result: inputRequired });
      inner.deliver({ jsonrpc: '2.0', id: 1, result: inputRequired }); // a duplicate: already answered
    });
    expect(seen).toEqual(['second', 'first', undefined]);
    expect(inner.sent).toHaveLength(2);
  });

  it('a final answer is handled in no unrelated scope: what awaits the request resumes in its own', async () => {
    const { inner, outer, seen } = wrapped(false);
    await inRequestScope(scope('first'), () => outer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }));
    await inRequestScope(scope('second'), () => outer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} }));
    inRequestScope(scope('launcher'), () => inner.deliver({ jsonrpc: '2.0', id: 2, result: { resultType: 'complete' } }));
    inner.deliver({ jsonrpc: '2.0', id: 1, result: {} });
    expect(seen).toEqual([undefined, undefined]);
  });

  it('stdio: a server request or notification belongs to no request (nothing on the wire says which)', () => {
    const { inner, seen } = wrapped(false);
    inRequestScope(scope('launcher'), () => {
      inner.deliver({ jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: {} });
      inner.deliver({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    });
    expect(seen).toEqual([undefined, undefined]);
  });

  it('Streamable HTTP: a server request keeps the scope of the stream it arrived on', () => {
    const { inner, seen } = wrapped(true);
    inRequestScope(scope('posted'), () => inner.deliver({ jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: {} }));
    inner.deliver({ jsonrpc: '2.0', id: 'srv-2', method: 'elicitation/create', params: {} });
    expect(seen).toEqual(['posted', undefined]);
  });

  it('outsideAnyRequest: work started there (a connect) carries no scope', async () => {
    const inside = await inRequestScope(scope('call'), () => outsideAnyRequest(async () => {
      await new Promise((r) => setTimeout(r, 1));
      return currentRequestScope();
    }));
    expect(inside).toBeUndefined();
  });
});

describe('InFlightRequests.attribute', () => {
  const target = { server: 's', auth: undefined, describeFailure: (e: unknown) => e as never };

  it('linked: the request it arrived in while that request runs; unlinked: only the single request in flight', async () => {
    const requests = new InFlightRequests();
    const seen: Record<string, unknown> = {};
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const running = requests.run(target, {} as never, 'calling tool a', { origin: { conversationId: 'c1', turnId: 't1' } }, async () => {
      const mine = currentRequestScope();
      seen.linked = requests.attribute(mine)?.origin;
      seen.alone = requests.attribute(undefined)?.origin;
      const other = requests.run(target, {} as never, 'calling tool b', {}, async () => {
        seen.twoInFlight = requests.attribute(undefined);
        seen.linkedWhileTwo = requests.attribute(mine)?.origin;
        await gate;
      });
      release();
      await other;
      return mine;
    });
    const finished = await running;
    expect(seen).toEqual({ linked: { conversationId: 'c1', turnId: 't1' }, alone: { conversationId: 'c1', turnId: 't1' }, twoInFlight: undefined, linkedWhileTwo: { conversationId: 'c1', turnId: 't1' } });
    // A finished request is no one's to answer for, and its `ended` signal says so.
    expect(requests.attribute(finished)).toBeUndefined();
    expect(finished!.ended.aborted).toBe(true);
  });

  it('id: each request has its own, the same however often it is read', async () => {
    const requests = new InFlightRequests();
    const ids: string[] = [];
    for (const action of ['calling tool a', 'calling tool b']) {
      await requests.run(target, {} as never, action, {}, async () => {
        const scope = currentRequestScope()!;
        ids.push(scope.id, scope.id);
      });
    }
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[3]).toBe(ids[2]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('ended: a signal taken while the request runs (a question asked during it) fires when the request ends, however it ends', async () => {
    const requests = new InFlightRequests();
    for (const outcome of ['resolves', 'rejects'] as const) {
      let during: AbortSignal | undefined;
      let abortedWhileRunning: boolean | undefined;
      const fired: string[] = [];
      const running = requests.run(target, {} as never, 'calling tool a', {}, async () => {
        during = currentRequestScope()!.ended;
        during.addEventListener('abort', () => fired.push(outcome), { once: true });
        await Promise.resolve();
        abortedWhileRunning = during.aborted;
        if (outcome === 'rejects') throw new Error('the server failed');
      });
      await running.catch(() => undefined);
      expect(abortedWhileRunning).toBe(false);
      expect(during!.aborted).toBe(true);
      expect(fired).toEqual([outcome]);
    }
  });
});

describe('InFlightRequests: the abort of a request', () => {
  const target = { server: 's', auth: undefined, describeFailure: (e: unknown) => e as never };
  /** A request that ends only when its signal fires, as the SDK's does (one abort listener while it waits). */
  const untilAborted = (_client: unknown, { signal }: { signal?: AbortSignal }) =>
    new Promise<never>((_, reject) => signal!.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));

  it('a request with neither a signal of its own nor a ceiling builds no AbortController (the per-call path)', async () => {
    const requests = new InFlightRequests();
    let built = 0;
    vi.stubGlobal(
      'AbortController',
      class extends AbortController {
        constructor() {
          super();
          built += 1;
        }
      },
    );
    try {
      for (let i = 0; i < 3; i++) await requests.run(target, {} as never, 'calling tool a', { timeoutMs: 1000 }, async () => 'done');
      // A caller's signal or a ceiling still gets its own.
      await requests.run(target, {} as never, 'calling tool a', { signal: AbortSignal.timeout(60_000) }, async () => 'done');
    } finally {
      vi.unstubAllGlobals();
    }
    expect(built).toBe(1);
  });

  it('abortAll ends every request in flight with its reason, shared abort or own; a request started afterwards is not aborted', async () => {
    const requests = new InFlightRequests();
    {
      const plain = Array.from({ length: 30 }, () => requests.run(target, {} as never, 'calling tool a', {}, untilAborted));
      const own = requests.run(target, {} as never, 'calling tool b', { signal: new AbortController().signal }, untilAborted);
      const reason = new HarborError('CONNECTION_CLOSED', 'gone');
      requests.abortAll(reason);
      const outcomes = await Promise.allSettled([...plain, own]);
      expect(outcomes.every((o) => o.status === 'rejected' && o.reason === reason)).toBe(true);
      const after = await requests.run(target, {} as never, 'calling tool c', {}, async (_client, { signal }) => signal!.aborted);
      expect(after).toBe(false);
    }
  });
});
