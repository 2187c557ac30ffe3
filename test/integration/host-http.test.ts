import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { createTestHost, type TestHost } from '../helpers/host';
import { startHttpFeatureServer, startLegacyHttpServer, type RunningHttpServer } from '../helpers/http-server';

let current: TestHost | undefined;
let server: RunningHttpServer | undefined;
afterEach(async () => {
  await current?.dispose();
  await server?.kill('SIGKILL');
  current = undefined;
  server = undefined;
});

describe('Host ↔ a real Streamable HTTP server on 127.0.0.1', () => {
  it('connects modern over HTTP and calls a tool', async () => {
    server = await startHttpFeatureServer();
    current = await createTestHost({ remote: { url: server.url, headers: { 'X-Harbor-Test': 'yes' } } });
    await current.host.servers.startAll();
    const summary = current.host.servers.get('remote');
    expect(summary).toMatchObject({ transport: 'http', state: { kind: 'ready' }, era: 'modern', protocolVersion: '2026-07-28' });
    const result = await current.call('remote', 'add', { a: 20, b: 22 });
    expect(result.structuredContent).toEqual({ sum: 42 });
    // The traffic log saw the call both ways.
    const traffic = current.host.traffic.list({ server: 'remote' });
    expect(traffic.some((e) => e.direction === 'out' && e.method === 'tools/call')).toBe(true);
  });

  it('fails a call promptly when the server dies mid-stream (not after the 60 s SDK timeout)', async () => {
    server = await startHttpFeatureServer();
    current = await createTestHost({ remote: { url: server.url } });
    await current.host.servers.startAll();
    const started = Date.now();
    const call = current
      .call('remote', 'slow', { steps: 100, delayMs: 100 }, {
        timeoutMs: 60_000,
        onProgress: (p) => {
          if (p.progress === 2) void server?.kill('SIGKILL');
        },
      })
      .then(() => undefined, (e: unknown) => e);
    const error = await call;
    expect(error).toBeInstanceOf(HarborError);
    expect(['CONNECTION_CLOSED', 'CONNECT_FAILED']).toContain((error as HarborError).code);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('talks to a legacy 2025 Streamable HTTP server (initialize, session) and says it is legacy', async () => {
    server = await startLegacyHttpServer('streamable');
    current = await createTestHost({ old: { url: server.url } });
    await current.host.servers.startAll();
    expect(current.host.servers.get('old')).toMatchObject({ state: { kind: 'ready' }, era: 'legacy' });
    const result = await current.call('old', 'echo', { text: 'from 2025' });
    expect(result.content).toEqual([{ type: 'text', text: 'from 2025' }]);
  });

  it('falls back to the legacy HTTP+SSE transport when the endpoint refuses Streamable HTTP', async () => {
    server = await startLegacyHttpServer('sse');
    current = await createTestHost({ ancient: { url: server.url } });
    await current.host.servers.startAll();
    expect(current.host.servers.get('ancient')).toMatchObject({ state: { kind: 'ready' }, era: 'legacy' });
    const result = await current.call('ancient', 'echo', { text: 'over SSE' });
    expect(result.content).toEqual([{ type: 'text', text: 'over SSE' }]);
  });

  it('remembers a fallback to HTTP+SSE: the next connect goes straight to SSE', async () => {
    server = await startLegacyHttpServer('sse');
    current = await createTestHost({ ancient: { url: server.url } });
    await current.host.servers.startAll();
    expect(current.host.servers.get('ancient')).toMatchObject({ state: { kind: 'ready' }, era: 'legacy' });
    // The first connect asked in Streamable HTTP (server/discover) before falling back.
    const firstConnect = current.host.traffic.list({ server: 'ancient' });
    expect(firstConnect.some((e) => e.direction === 'out' && e.method === 'server/discover')).toBe(true);
    const cache = JSON.parse(readFileSync(join(current.dir, 'era-cache.json'), 'utf8')) as Record<string, { prior: { kind: string }; sse?: boolean }>;
    expect(cache.ancient).toMatchObject({ prior: { kind: 'legacy' }, sse: true });

    const mark = firstConnect.at(-1)!.seq;
    await current.host.servers.restart('ancient');
    expect(current.host.servers.get('ancient')).toMatchObject({ state: { kind: 'ready' }, era: 'legacy' });
    const reconnect = current.host.traffic.list({ server: 'ancient', afterSeq: mark });
    expect(reconnect.some((e) => e.method === 'initialize')).toBe(true);
    expect(reconnect.filter((e) => e.method === 'server/discover')).toHaveLength(0);
    const result = await current.call('ancient', 'echo', { text: 'still SSE' });
    expect(result.content).toEqual([{ type: 'text', text: 'still SSE' }]);
  });

  it('uses HTTP+SSE straight away for "transport": "sse"', async () => {
    server = await startLegacyHttpServer('sse');
    current = await createTestHost({ ancient: { url: server.url, transport: 'sse' } });
    await current.host.servers.startAll();
    expect(current.host.servers.get('ancient')).toMatchObject({ state: { kind: 'ready' }, era: 'legacy' });
    const posts = current.host.traffic.list({ server: 'ancient' }).filter((e) => e.method === 'server/discover');
    expect(posts).toHaveLength(0);
  });

  it('reports an unreachable URL as a connection error with the cause', async () => {
    current = await createTestHost({ gone: { url: 'http://127.0.0.1:9/mcp' } }, { connectTimeoutMs: 5_000 });
    await current.host.servers.startAll();
    const state = current.host.servers.get('gone').state;
    expect(state.kind).toBe('error');
    if (state.kind === 'error') {
      expect(state.code).toBe('CONNECT_FAILED');
      expect(state.message).toMatch(/gone/);
    }
  });
});
