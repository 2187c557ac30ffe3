import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { HarborError } from '../../main/host/errors';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { EVERYTHING_SERVER, FEATURE_SERVER, FIXTURES, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

function recordEvents(t: TestHost) {
  const events: EventPayload<'servers.changed'>[] = [];
  disposeAfterTest(t.host.events.onEvent('servers.changed', (payload) => events.push(payload)));
  return events;
}

describe('Host ↔ real servers over stdio', () => {
  it('connects a modern server, lists its catalog and calls tools', async () => {
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    await current.host.servers.startAll();
    const summary = current.host.servers.get('feature');
    expect(summary.state).toEqual({ kind: 'ready' });
    expect(summary.era).toBe('modern');
    expect(summary.protocolVersion).toBe('2026-07-28');
    expect(summary.counts.tools).toBeGreaterThanOrEqual(8);
    expect(summary.counts.resources).toBe(2);
    expect(summary.counts.prompts).toBe(1);

    const echo = await current.call('feature', 'echo', { text: 'héllo 👋' });
    expect(echo.content).toEqual([{ type: 'text', text: 'héllo 👋' }]);
    const add = await current.call('feature', 'add', { a: 2, b: 3 });
    expect(add.structuredContent).toEqual({ sum: 5 });
    const fail = await current.call('feature', 'fail', {});
    expect(fail.isError).toBe(true);
    const read = await current.host.calls.readResource('feature', 'fixture://unicode/ünï');
    expect(read.contents.length).toBeGreaterThan(0);
    const prompt = await current.host.calls.getPrompt('feature', 'greet', { name: 'Ada' });
    expect(JSON.stringify(prompt.messages)).toContain('Ada');
  });

  it('connects the legacy server-everything and says it is legacy', async () => {
    current = await createTestHost({ everything: { command: NODE, args: [EVERYTHING_SERVER, 'stdio'] } });
    await current.host.servers.startAll();
    const summary = current.host.servers.get('everything');
    expect(summary.state).toEqual({ kind: 'ready' });
    expect(summary.era).toBe('legacy');
    expect(summary.protocolVersion).toBe('2025-11-25');
    // Harbor declares elicitation form + url, sampling ("ask" by default) and tasks (elicitation and
    // sampling run as tasks): server-everything then offers 18 tools (trigger-sampling-request and
    // the two -async ones among them).
    expect(summary.counts).toMatchObject({ tools: 18, resources: 7, prompts: 4 });
    const echo = await current.call('everything', 'echo', { message: 'hi' });
    expect(JSON.stringify(echo.content)).toContain('hi');
  });

  it('falls back to legacy within the probe timeout when server/discover is never answered', async () => {
    current = await createTestHost({ quiet: { command: NODE, args: [join(FIXTURES, 'modern/no-discover.mjs')] } }, { probeTimeoutMs: 1_000 });
    const started = Date.now();
    await current.host.servers.startAll();
    expect(current.host.servers.get('quiet')).toMatchObject({ state: { kind: 'ready' }, era: 'legacy' });
    expect(Date.now() - started).toBeLessThan(8_000);
    // Never answered at all: a server that ignores unknown methods. The verdict is kept, so the
    // next connect does not wait for the probe again.
    const cache = JSON.parse(readFileSync(join(current.dir, 'era-cache.json'), 'utf8')) as Record<string, { prior: { kind: string } }>;
    expect(cache.quiet?.prior.kind).toBe('legacy');
  });

  it("a server's own probeTimeoutMs in the registry wins over the default", async () => {
    current = await createTestHost({ quiet: { command: NODE, args: [join(FIXTURES, 'modern/no-discover.mjs')], probeTimeoutMs: 300 } }, { probeTimeoutMs: 20_000 });
    const started = Date.now();
    await current.host.servers.startAll();
    expect(current.host.servers.get('quiet')).toMatchObject({ state: { kind: 'ready' }, era: 'legacy' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a modern server that was only slow to start (npx downloading) is not remembered as legacy', async () => {
    // The first launch sleeps past the probe timeout, as a first `npx -y` does; later ones do not.
    const flag = join(tmpdir(), `harbor-slow-start-${process.pid}-${Date.now()}`);
    const script = `[ -e "${flag}" ] || { : > "${flag}"; sleep 5; }; exec "${NODE}" "${FEATURE_SERVER}"`;
    try {
      // The timeout leaves a busy machine time to start the server when it is not slow.
      current = await createTestHost({ slow: { command: 'sh', args: ['-c', script] } }, { probeTimeoutMs: 3_000 });
      await current.host.servers.startAll();
      // The SDK fell back to initialize, which the modern server answers too: it works, as legacy.
      expect(current.host.servers.get('slow')).toMatchObject({ state: { kind: 'ready' }, era: 'legacy' });
      const first = current.host.traffic.list({ server: 'slow' });
      const late = first.find((e) => e.direction === 'in' && e.id === first.find((o) => o.method === 'server/discover')?.id);
      expect(late?.text, 'the probe was answered, late').toContain('"result"');
      expect(existsSync(join(current.dir, 'era-cache.json')) ? readFileSync(join(current.dir, 'era-cache.json'), 'utf8') : '{}').not.toContain('"slow"');

      await current.host.servers.restart('slow');
      expect(current.host.servers.get('slow')).toMatchObject({ state: { kind: 'ready' }, era: 'modern', protocolVersion: '2026-07-28' });
      const cache = JSON.parse(readFileSync(join(current.dir, 'era-cache.json'), 'utf8')) as Record<string, { prior: { kind: string } }>;
      expect(cache.slow?.prior.kind).toBe('modern');
    } finally {
      rmSync(flag, { force: true });
    }
  });

  it('reuses the cached era verdict on the next connect (no second probe)', async () => {
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    await current.host.servers.startAll();
    expect(current.host.traffic.list({ server: 'feature' }).some((e) => e.method === 'server/discover')).toBe(true);
    const cache = JSON.parse(readFileSync(join(current.dir, 'era-cache.json'), 'utf8')) as Record<string, { prior: { kind: string } }>;
    expect(cache.feature?.prior.kind).toBe('modern');
    const before = current.host.traffic.list().at(-1)?.seq ?? 0;
    await current.host.servers.restart('feature');
    expect(current.host.servers.get('feature').era).toBe('modern');
    const after = current.host.traffic.list({ server: 'feature', afterSeq: before });
    expect(after.some((e) => e.method === 'tools/list')).toBe(true);
    expect(after.some((e) => e.method === 'server/discover')).toBe(false);
  });

  it('streams progress, and a user abort is a cancellation the server sees', async () => {
    const eventsFile = join(tmpdir(), `harbor-events-${process.pid}-${Date.now()}.txt`);
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER, '--events-file', eventsFile] } });
    const progress: number[] = [];
    const done = await current.call('feature', 'slow', { steps: 3, delayMs: 50 }, { onProgress: (p) => progress.push(p.progress) });
    // Progress arrives in order; the last notification may race the result, so check the prefix.
    expect(progress.slice(0, 2)).toEqual([1, 2]);
    expect(JSON.stringify(done.content)).toContain('slow done 3/3');

    const controller = new AbortController();
    const pending = current.call('feature', 'slow', { steps: 50, delayMs: 200 }, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.progress === 2) controller.abort(new Error('user pressed Stop'));
      },
    });
    const error = await pending.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(HarborError);
    expect((error as HarborError).code).toBe('CANCELLED');
    await waitFor(() => existsSync(eventsFile) && readFileSync(eventsFile, 'utf8').includes('cancelled'), 'the server to record the cancellation');
  });

  it('a per-request timeout is a TIMEOUT (not a cancellation) and the server is told', async () => {
    const eventsFile = join(tmpdir(), `harbor-events-t-${process.pid}-${Date.now()}.txt`);
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER, '--events-file', eventsFile] } });
    const error = await current
      .call('feature', 'slow', { steps: 1, delayMs: 5_000 }, { timeoutMs: 300 })
      .then(() => undefined, (e: unknown) => e);
    expect((error as HarborError).code).toBe('TIMEOUT');
    await waitFor(() => existsSync(eventsFile) && readFileSync(eventsFile, 'utf8').includes('cancelled'), 'the server to see the timeout cancellation');
  });

  it('a hard maximum stops a call that keeps reporting progress', async () => {
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    const started = Date.now();
    const error = await current
      .call('feature', 'slow', { steps: 100, delayMs: 100 }, { timeoutMs: 1_000, maxTotalMs: 700 })
      .then(() => undefined, (e: unknown) => e);
    expect((error as HarborError).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers input_required through the elicitation broker (accept and decline)', async () => {
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    const asked: string[] = [];
    const responder = current.host.elicitation.respondWith(async (server, request) => {
      asked.push(`${server}: ${request.message}`);
      return { action: 'accept', content: { name: 'Grace' } };
    });
    const accepted = await current.call('feature', 'ask_name', {});
    expect(JSON.stringify(accepted.content)).toContain('Hello Grace');
    expect(asked[0]).toMatch(/^feature: /);
    await responder.dispose();
    const declined = await current.call('feature', 'ask_name', {});
    expect(JSON.stringify(declined.content)).toContain('declined');
  });

  it('refreshes the catalog when a modern server announces a change on its listen stream', async () => {
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    const events = recordEvents(current);
    await current.host.servers.startAll();
    await current.call('feature', 'mutate', { description: 'Echo, but changed' });
    await waitFor(() => events.some((e) => e.reason === 'catalog' && e.changed?.includes('tools')), 'a tools catalog event');
    const catalog = await current.host.calls.catalog('feature');
    expect(catalog.tools.find((t) => t.name === 'echo')?.description).toBe('Echo, but changed');
  });

  it('refreshes the catalog on legacy list_changed', async () => {
    current = await createTestHost({ everything: { command: NODE, args: [EVERYTHING_SERVER, 'stdio'] } });
    const events = recordEvents(current);
    await current.host.servers.startAll();
    const before = (await current.host.calls.catalog('everything')).resources.length;
    // gzip-file-as-resource registers a session resource and sends notifications/resources/list_changed.
    await current.call('everything', 'gzip-file-as-resource', {
      name: 'hello.gz',
      data: 'data:text/plain;base64,aGVsbG8=',
      outputType: 'resourceLink',
    });
    await waitFor(() => events.some((e) => e.reason === 'catalog' && e.changed?.includes('resources')), 'a resources catalog event');
    const after = (await current.host.calls.catalog('everything')).resources;
    expect(after.length).toBe(before + 1);
    expect(after.some((r) => r.uri.endsWith('hello.gz'))).toBe(true);
  });

  it('reports a missing command with the cause and a fix, not "Connection closed"', async () => {
    current = await createTestHost({ missing: { command: 'harbor-no-such-command-xyz' } });
    await current.host.servers.startAll();
    const state = current.host.servers.get('missing').state;
    expect(state.kind).toBe('error');
    if (state.kind !== 'error') return;
    expect(state.code).toBe('SPAWN_FAILED');
    expect(state.message).toMatch(/could not find "harbor-no-such-command-xyz"/);
    expect(state.message).not.toMatch(/-32000|Connection closed/);
  });
});
