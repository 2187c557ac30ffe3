import { describe, expect, it } from 'vitest';
import { Redactor } from '../../main/host/secrets/redactor';
import { TRAFFIC_LIMITS, TRAFFIC_PREVIEW_CHARS, TrafficLog, plainTrafficEntry } from '../../main/host/servers/traffic';
import { noteWireText } from '../../main/host/servers/wire-text';

const request = { jsonrpc: '2.0' as const, id: 7, method: 'tools/call', params: { name: 'echo', arguments: { token: 'sk-live-123456' } } };

describe('traffic log', () => {
  it('serialises and redacts a message only when its text is read', () => {
    let redactions = 0;
    const redactor = new Redactor();
    redactor.add('sk-live-123456');
    const log = new TrafficLog((text) => (redactions++, redactor.redact(text)));
    log.record('feature', 'out', request);
    log.record('feature', 'in', { jsonrpc: '2.0', id: 7, result: { content: [] } });
    expect(redactions).toBe(0);
    const [out] = log.list();
    expect(redactions).toBe(2);
    expect(out).toMatchObject({ seq: 1, server: 'feature', direction: 'out', method: 'tools/call', id: 7 });
    expect(out!.text).toContain('"token":"***"');
    expect(out!.text).not.toContain('sk-live-123456');
  });

  it('lists plain objects that keep their text through structured clone and JSON (IPC, WebSocket)', () => {
    const log = new TrafficLog((text) => new Redactor().redact(text));
    log.record('feature', 'out', request);
    const [entry] = log.list();
    expect(structuredClone(entry)).toEqual(entry);
    expect((JSON.parse(JSON.stringify(entry)) as { text: string }).text).toBe(JSON.stringify(request));
  });

  it('gives listeners the entry, and plainTrafficEntry a copy with the text', () => {
    const log = new TrafficLog();
    const seen: unknown[] = [];
    log.onEntry((entry) => seen.push(plainTrafficEntry(entry)));
    log.record('feature', 'in', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(seen).toEqual([
      { seq: 1, at: expect.any(Number) as number, server: 'feature', direction: 'in', method: 'notifications/tools/list_changed', text: '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}' },
    ]);
  });

  it('keeps the newest entries within its capacity and filters by server and sequence', () => {
    const log = new TrafficLog(undefined, { maxEntries: 10, maxBytes: 1_000_000 });
    for (let i = 0; i < 30; i++) log.record(i % 2 === 0 ? 'a' : 'b', 'out', { jsonrpc: '2.0', id: i, method: 'ping' });
    const all = log.list();
    expect(all.map((e) => e.seq)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    expect(log.list({ server: 'a', afterSeq: 26 }).map((e) => e.seq)).toEqual([27, 29]);
  });
});

describe('traffic log: the transport\'s own text', () => {
  it('keeps the text a transport wrote or read for a message (what was on the wire), redacted on read, its length the size', () => {
    const message = { jsonrpc: '2.0' as const, id: 3, result: { content: [{ type: 'text', text: 'sk-live-123456' }] } };
    // A server's line as written, spacing and all: not what JSON.stringify of the parsed message gives.
    const line = '{"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "sk-live-123456"}]}}';
    noteWireText(message, line);
    const redactor = new Redactor();
    redactor.add('sk-live-123456');
    const log = new TrafficLog((text) => redactor.redact(text));
    log.record('feature', 'in', message);
    expect(log.retainedBytes).toBe(line.length);
    expect(log.list()[0]!.text).toBe(line.replace('sk-live-123456', '***'));
  });

  it('cuts a long one to its preview at once, redacted whole', () => {
    const message = { jsonrpc: '2.0' as const, id: 4, result: { blob: 'x'.repeat(100_000), token: 'sk-live-123456' } };
    noteWireText(message, JSON.stringify(message, null, 1));
    const redactor = new Redactor();
    redactor.add('sk-live-123456');
    const log = new TrafficLog((text) => redactor.redact(text));
    log.record('feature', 'in', message);
    const [entry] = log.list();
    expect(entry!.text.startsWith('{\n "jsonrpc": "2.0"')).toBe(true);
    expect(entry!.text).toMatch(/… \d+ KB more/);
    expect(log.retainedBytes).toBeLessThan(TRAFFIC_PREVIEW_CHARS + 100);
  });
});

describe('traffic log memory', () => {
  const bigResult = (id: number, kb: number) => ({ jsonrpc: '2.0' as const, id, result: { content: [{ type: 'text', text: 'z'.repeat(kb * 1024) }] } });

  it('stays within its bytes after many large messages, keeping one bounded preview of each', () => {
    const log = new TrafficLog();
    for (let i = 0; i < 120; i++) {
      log.record('big', 'out', { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo' } });
      log.record('big', 'in', bigResult(i, 200));
    }
    // What it would hand to a window, and the log's own accounting of what it holds.
    const listed = log.list();
    const listedChars = listed.reduce((sum, e) => sum + e.text.length, 0);
    expect(listedChars).toBeLessThanOrEqual(TRAFFIC_LIMITS.maxBytes);
    expect(log.retainedBytes).toBeLessThanOrEqual(TRAFFIC_LIMITS.maxBytes);
    expect(log.retainedBytes).toBeGreaterThan(0);
    const newest = listed.at(-1)!;
    expect(newest.id).toBe(119);
    expect(newest.text.length).toBeLessThanOrEqual(TRAFFIC_PREVIEW_CHARS + 100);
    expect(newest.text).toMatch(/… \d+ KB more \(200 KB in all\)$/);
  });

  it('redacts the whole message before cutting it, so no secret survives half-cut at the edge', () => {
    const redactor = new Redactor();
    const secret = 'sk-live-abcdefghijklmnop';
    redactor.add(secret);
    const log = new TrafficLog((text) => redactor.redact(text));
    // The secret straddles the preview's edge.
    const pad = 'p'.repeat(TRAFFIC_PREVIEW_CHARS - 60);
    log.record('big', 'in', { jsonrpc: '2.0', id: 1, result: { text: `${pad}${secret}${'q'.repeat(100 * 1024)}` } });
    const [entry] = log.list();
    expect(entry!.text).not.toContain('sk-live-abc');
    expect(entry!.text).toContain('***');
  });
});
