/**
 * Finding 10: the limiter both ends of an app's bridge apply (its sandbox proxy and the page's
 * transport): messages per second, the size of one message and of a second's worth, and one
 * waiting request per app and tool (a few in all), each answered with an error at once beyond.
 */
import { describe, expect, it } from 'vitest';
import { APP_LIMITS, appStoppedReason, createAppLimiter, type AppLimits } from '../../preload/contract';

const limits: AppLimits = { messagesPerSecond: 10, messageBytes: 1000, bytesPerSecond: 3000, pendingPerApp: 3 };
const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('the app limiter', () => {
  it('stops an app past the messages of one second, and lets it send again the next second', () => {
    const c = clock();
    const limiter = createAppLimiter(limits, c.now);
    for (let i = 0; i < 10; i += 1) expect(limiter.inbound(note)).toEqual({ kind: 'pass' });
    expect(limiter.inbound(note)).toEqual({ kind: 'stop', limit: 'rate' });
    const fresh = createAppLimiter(limits, c.now);
    for (let i = 0; i < 10; i += 1) fresh.inbound(note);
    c.advance(1000);
    expect(fresh.inbound(note)).toEqual({ kind: 'pass' });
  });

  it('stops an app that sends one message too large, or too much in one second, whatever shape the bytes take', () => {
    const c = clock();
    expect(createAppLimiter(limits, c.now).inbound({ ...note, params: { data: 'x'.repeat(1001) } })).toEqual({ kind: 'stop', limit: 'size' });
    expect(createAppLimiter(limits, c.now).inbound({ ...note, params: { data: new Uint8Array(2000) } })).toEqual({ kind: 'stop', limit: 'size' });
    // A sparse array of a billion slots is measured by its length, not walked.
    expect(createAppLimiter(limits, c.now).inbound({ ...note, params: { data: new Array(1e9) } })).toEqual({ kind: 'stop', limit: 'size' });
    const cyclic: Record<string, unknown> = { a: 'y'.repeat(100) };
    cyclic.self = cyclic;
    expect(createAppLimiter(limits, c.now).inbound({ ...note, params: cyclic })).toEqual({ kind: 'pass' });
    const steady = createAppLimiter(limits, c.now);
    const big = { ...note, params: { data: 'z'.repeat(900) } };
    for (let i = 0; i < 3; i += 1) expect(steady.inbound(big)).toEqual({ kind: 'pass' });
    expect(steady.inbound(big)).toEqual({ kind: 'stop', limit: 'bytes' });
  });

  it('the outsider\'s round: an app just under the rate and byte rate is not stopped when its bursts arrive unevenly (a busy machine delays one by 150 ms)', () => {
    // 150 messages, or three 3.9 MB ones, each 1.1 s: under 200 per second and 16 MiB/s on
    // average. The proxy hears them with the machine's jitter: here every other burst 150 ms late,
    // so two bursts land 950 ms apart. (A window reset each second counted both in one: stopped.)
    const c = clock();
    const calls = createAppLimiter(APP_LIMITS, c.now);
    const big = { ...note, params: { level: 'info', data: 'y'.repeat(Math.floor(3.9 * 1024 * 1024)) } };
    const logs = createAppLimiter(APP_LIMITS, c.now);
    for (let round = 0; round < 18; round += 1) {
      const late = round % 2 === 0 ? 150 : 0;
      c.advance(late);
      for (let i = 0; i < 150; i += 1) expect(calls.inbound(note).kind, `round ${round}, message ${i}`).toBe('pass');
      for (let i = 0; i < 3; i += 1) expect(logs.inbound(big).kind, `round ${round}, big message ${i}`).toBe('pass');
      c.advance(1100 - late);
    }
    // A real flood still stops: past one second's worth at once, or past the rate kept up.
    const c2 = clock();
    const kept = createAppLimiter(APP_LIMITS, c2.now);
    let stopped: string | undefined;
    for (let i = 0; i < 5000 && stopped === undefined; i += 1) {
      const verdict = kept.inbound(note);
      if (verdict.kind === 'stop') stopped = verdict.limit;
      c2.advance(4); // 250 per second
    }
    expect(stopped).toBe('rate');
  });

  it('stops an app that sends what JSON cannot hold (a Map, a Set, an Error, a RegExp): structured clone copies data a walk of its keys never sees', () => {
    const big = 'A'.repeat(5_000);
    for (const data of [new Map([[0, big]]), new Set([big]), new Error(big), new RegExp(big), { params: { data: new Map([[0, big]]) } }, [new Date()]]) {
      const limiter = createAppLimiter(limits, clock().now);
      expect(limiter.inbound({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } })).toEqual({ kind: 'stop', limit: 'shape' });
    }
    expect(appStoppedReason('shape', APP_LIMITS)).toBe('it sent something that is not JSON (a Map, a Set, an Error, a RegExp or the like)');
    // Plain JSON, objects with no prototype included, passes.
    expect(createAppLimiter(limits, clock().now).inbound({ ...note, params: Object.assign(Object.create(null) as object, { level: 'info', data: [1, 'two', null, true] }) })).toEqual({ kind: 'pass' });
  });

  it('lets one call per tool wait: the same tool again is refused at once with an error for that request, until the first is answered', () => {
    const limiter = createAppLimiter(limits, clock().now);
    expect(limiter.inbound(call(1, 'delete'))).toEqual({ kind: 'pass' });
    const refused = limiter.inbound(call(2, 'delete'));
    expect(refused).toMatchObject({ kind: 'refuse', reply: { jsonrpc: '2.0', id: 2, error: { code: -32000, message: expect.stringMatching(/already waiting for tools\/call delete/) } } });
    // Another tool may wait beside it; a notification or an answer from the app is no request.
    expect(limiter.inbound(call(3, 'list'))).toEqual({ kind: 'pass' });
    expect(limiter.inbound({ jsonrpc: '2.0', id: 99, result: {} })).toEqual({ kind: 'pass' });
    // The answer to the first frees its tool.
    limiter.outbound({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    expect(limiter.inbound(call(4, 'delete'))).toEqual({ kind: 'pass' });
    // A request of the host to the app (it has a method) frees nothing.
    limiter.outbound({ jsonrpc: '2.0', id: 4, method: 'ui/resource-teardown', params: {} });
    expect(limiter.inbound(call(5, 'delete')).kind).toBe('refuse');
  });

  it('lets an app wait for a few requests in all, and refuses a reused id', () => {
    const limiter = createAppLimiter(limits, clock().now);
    for (const [id, name] of [[1, 'a'], [2, 'b'], [3, 'c']] as const) expect(limiter.inbound(call(id, name)).kind).toBe('pass');
    expect(limiter.inbound(call(4, 'd'))).toMatchObject({ kind: 'refuse', reply: { id: 4, error: { message: expect.stringMatching(/at most 3/) } } });
    limiter.outbound({ jsonrpc: '2.0', id: 2, error: { code: 1, message: 'no' } });
    expect(limiter.inbound(call(3, 'e')).kind).toBe('refuse');
    expect(limiter.inbound(call(5, 'e')).kind).toBe('pass');
  });

  it('a flood of the finding (100k notifications, 100k calls, 10 MB messages) is stopped within its first second', () => {
    const limiter = createAppLimiter(APP_LIMITS, clock().now);
    const verdicts = [];
    for (let i = 0; i < 100_000; i += 1) {
      const verdict = limiter.inbound(i % 2 ? note : call(i, 'delete_everything'));
      verdicts.push(verdict.kind);
      if (verdict.kind === 'stop') break;
    }
    expect(verdicts.length).toBe(APP_LIMITS.messagesPerSecond + 1);
    expect(verdicts.filter((v) => v === 'pass').length).toBeLessThanOrEqual(APP_LIMITS.messagesPerSecond / 2 + 1);
    expect(createAppLimiter(APP_LIMITS, clock().now).inbound({ ...note, params: { data: 'x'.repeat(10 * 1024 * 1024) } })).toEqual({ kind: 'stop', limit: 'size' });
    expect(appStoppedReason('rate')).toBe('it sent more than 200 messages per second');
    expect(appStoppedReason('size')).toBe('it sent a message larger than 4 MB');
    expect(appStoppedReason('bytes')).toBe('it sent more than 16 MB per second');
  });

  it('is self-contained: the proxy page runs it from its source text alone', () => {
    const rebuilt = new Function(`return (${createAppLimiter.toString()})`)() as typeof createAppLimiter;
    const limiter = rebuilt(limits, () => 0);
    expect(limiter.inbound(call(1, 'a')).kind).toBe('pass');
    expect(limiter.inbound(call(2, 'a')).kind).toBe('refuse');
  });
});
