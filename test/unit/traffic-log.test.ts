import { describe, expect, it } from 'vitest';
import { Redactor } from '../../main/host/secrets/redactor';
import { TrafficLog, plainTrafficEntry } from '../../main/host/servers/traffic';

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
    const log = new TrafficLog(undefined, 10);
    for (let i = 0; i < 30; i++) log.record(i % 2 === 0 ? 'a' : 'b', 'out', { jsonrpc: '2.0', id: i, method: 'ping' });
    const all = log.list();
    expect(all.map((e) => e.seq)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    expect(log.list({ server: 'a', afterSeq: 26 }).map((e) => e.seq)).toEqual([27, 29]);
  });
});
