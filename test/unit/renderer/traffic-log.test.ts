// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApi, type TrafficEntryData } from '../../../preload/contract';
import { FrameBatch } from '../../../renderer/src/features/activity/frame-batch';
import { TrafficLog } from '../../../renderer/src/features/activity/traffic-log';
import type { TrafficRowData } from '../../../renderer/src/features/activity/traffic-pairing';
import { TrafficStore, filterTraffic } from '../../../renderer/src/features/activity/traffic-store';
import { ContractTransport } from '../../helpers/contract-transport';

afterEach(() => {
  vi.useRealTimers();
});

const entry = (seq: number, server: string, direction: 'out' | 'in', message: Record<string, unknown>): TrafficEntryData => ({
  seq,
  at: 1_700_000_000_000 + seq * 10,
  server,
  direction,
  text: JSON.stringify({ jsonrpc: '2.0', ...message }),
  ...(typeof message.method === 'string' ? { method: message.method } : {}),
  ...(message.id !== undefined ? { id: message.id as number } : {}),
});

const row = (seq: number, server = 'a'): TrafficRowData => ({ seq, at: seq, server, direction: 'out', text: '{}', label: 'x', isError: false });

describe('TrafficLog', () => {
  it('keeps the newest rows in order through many drops, and the servers they name', () => {
    const log = new TrafficLog(3);
    for (let seq = 1; seq <= 20; seq++) log.push(row(seq, seq <= 18 ? 'old' : 'new'));
    expect(log.list().map((r) => r.seq)).toEqual([18, 19, 20]);
    expect(log.servers()).toEqual(['new', 'old']);
    log.push(row(21, 'new'));
    expect(log.servers()).toEqual(['new']);
    expect(log.size).toBe(3);
  });

  it('answers a request by its sequence number, and ignores one no longer in the log', () => {
    const log = new TrafficLog(4);
    for (const seq of [2, 5, 7, 9]) log.push(row(seq));
    log.answer({ requestSeq: 5, patch: { pairSeq: 11, latencyMs: 3, isError: true } });
    log.answer({ requestSeq: 1, patch: { pairSeq: 12, latencyMs: 3, isError: false } });
    log.answer({ requestSeq: 6, patch: { pairSeq: 13, latencyMs: 3, isError: false } });
    expect(log.list().map((r) => [r.seq, r.pairSeq, r.isError])).toEqual([
      [2, undefined, false],
      [5, 11, true],
      [7, undefined, false],
      [9, undefined, false],
    ]);
  });

  it('hands out the same list until it changes, and a new one after', () => {
    const log = new TrafficLog(10);
    log.push(row(1));
    const first = log.list();
    expect(log.list()).toBe(first);
    log.push(row(2));
    expect(log.list()).not.toBe(first);
    expect(first.map((r) => r.seq)).toEqual([1]);
    log.clear();
    expect([log.list(), log.servers()]).toEqual([[], []]);
  });
});

describe('FrameBatch', () => {
  it('runs the first request at once and the rest of the frame together when the next one starts', () => {
    vi.useFakeTimers();
    const flush = vi.fn();
    const batch = new FrameBatch(flush);
    batch.request();
    expect(flush).toHaveBeenCalledTimes(1);
    batch.request();
    batch.request();
    expect(flush).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(20);
    expect(flush).toHaveBeenCalledTimes(2);
    // A quiet frame: the next request runs at once again.
    vi.advanceTimersByTime(40);
    batch.request();
    expect(flush).toHaveBeenCalledTimes(3);
    batch.request();
    batch.dispose();
    vi.advanceTimersByTime(40);
    expect(flush).toHaveBeenCalledTimes(3);
  });
});

describe('TrafficStore, message by message', () => {
  const liveStore = async (list: TrafficEntryData[] = []) => {
    const host = new ContractTransport({ 'traffic.list': () => list });
    const store = new TrafficStore(buildApi(host), 6);
    const stop = store.start();
    await vi.waitFor(() => expect(store.snapshot().status).toBe('ready'));
    return { host, store, stop };
  };

  it('pairs a response that comes after its request, not one that comes before it; filters see the pairs', async () => {
    const { host, store, stop } = await liveStore([entry(1, 'a', 'out', { id: 1, method: 'tools/call' })]);
    // A response with no request before it stays on its own, and the request after it waits for its own.
    host.emit('traffic.message', entry(2, 'b', 'in', { id: 7, result: {} }));
    host.emit('traffic.message', entry(3, 'b', 'out', { id: 7, method: 'resources/read' }));
    host.emit('traffic.message', entry(4, 'a', 'in', { id: 1, result: { isError: true } }));
    const rows = store.snapshot().rows;
    expect(rows.map((r) => [r.seq, r.label, r.pairSeq, r.isError])).toEqual([
      [1, 'tools/call', 4, true],
      [2, 'response', undefined, false],
      [3, 'resources/read', undefined, false],
      [4, 'tools/call (response)', 1, true],
    ]);
    expect(filterTraffic(rows, { server: 'a', method: 'tools/call', direction: 'all' }).map((r) => r.seq)).toEqual([1, 4]);
    expect(filterTraffic(rows, { server: '', method: 'call', direction: 'in' }).map((r) => r.seq)).toEqual([4]);
    host.emit('traffic.message', entry(5, 'b', 'in', { id: 7, result: {} }));
    expect(store.snapshot().rows.find((r) => r.seq === 3)).toMatchObject({ pairSeq: 5, latencyMs: 20 });
    expect(store.snapshot().servers).toEqual(['a', 'b']);
    stop();
  });

  it('pairs within the newest rows it keeps, and reads each state once however many messages came', async () => {
    const { host, store, stop } = await liveStore();
    const heard = vi.fn();
    const unsubscribe = store.subscribe(heard);
    for (let id = 1; id <= 10; id++) {
      host.emit('traffic.message', entry(id * 2 - 1, 'a', 'out', { id, method: 'tools/call' }));
      host.emit('traffic.message', entry(id * 2, 'a', 'in', { id, result: {} }));
    }
    // Told at once of the first message; the other nineteen wait for the next frame.
    expect(heard).toHaveBeenCalledTimes(1);
    const state = store.snapshot();
    expect(store.snapshot()).toBe(state);
    expect(state.rows.map((r) => [r.seq, r.pairSeq])).toEqual([
      [15, 16],
      [16, 15],
      [17, 18],
      [18, 17],
      [19, 20],
      [20, 19],
    ]);
    await vi.waitFor(() => expect(heard).toHaveBeenCalledTimes(2));
    unsubscribe();
    stop();
  });
});

describe('TrafficLog memory', () => {
  it('holds at most maxChars of message text, however many rows its count allows', () => {
    const log = new TrafficLog(10_000, 1_000_000);
    const big = 'b'.repeat(16 * 1024);
    for (let seq = 1; seq <= 1_000; seq++) log.push({ ...row(seq), text: big });
    expect(log.bytes).toBeLessThanOrEqual(1_000_000);
    const rows = log.list();
    expect(rows.reduce((sum, r) => sum + r.text.length, 0)).toBeLessThanOrEqual(1_000_000);
    expect(rows.at(-1)!.seq).toBe(1_000);
    expect(rows.length).toBeGreaterThan(10);
  });
});
