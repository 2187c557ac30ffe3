/**
 * Sandboxed stdio servers with real processes: @modelcontextprotocol/server-filesystem and a probe
 * server inside bubblewrap, each beside a control that runs without the sandbox. What the sandbox
 * refuses shows in the server's log with the change that allows it; the stop ladder and stderr
 * work as for any server; a machine without the sandbox refuses to start the server.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { findMarkedProcesses, killMarkedProcesses, uniqueMarker, waitForMarkedProcesses, waitForNoMarkedProcesses } from '../fixtures/proc';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FIXTURES, NODE, REPO, createTestHost, waitFor, type TestHost } from '../helpers/host';
import { requireSandboxInCi } from '../helpers/sandbox';

const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const PROBE = join(FIXTURES, 'sandbox-probe.mjs');
const STUBBORN = join(FIXTURES, 'adversarial/stubborn.mjs');

/** The process checks read /proc; macOS's Seatbelt sandbox is written, not run, on our machines. */
const problem = process.platform === 'linux' ? await requireSandboxInCi() : 'these tests run on Linux (they check processes through /proc)';

let work: string;
const hosts: TestHost[] = [];
const markers: string[] = [];
const listeners: Server[] = [];

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'harbor-sandbox-work-'));
  mkdirSync(join(work, 'allowed'));
  mkdirSync(join(work, 'outside'));
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  for (const marker of markers.splice(0)) killMarkedProcesses(marker);
  for (const listener of listeners.splice(0)) await new Promise((resolve) => listener.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

async function host(servers: Parameters<typeof createTestHost>[0], options: Parameters<typeof createTestHost>[1] = {}): Promise<TestHost> {
  const t = await createTestHost(servers, { stopGraces: { stdinGraceMs: 300, termGraceMs: 300 }, ...options });
  hosts.push(t);
  return t;
}

/** A loopback HTTP listener that counts the connections it accepts. */
async function countingListener(): Promise<{ url: string; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((_request, response) => response.end('reached'));
  server.on('connection', () => (count += 1));
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/`, port, connections: () => count };
}

function structured(result: { structuredContent?: unknown }): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}

function text(result: { content?: unknown }): string {
  return JSON.stringify(result.content ?? []);
}

describe.skipIf(problem !== undefined)(`sandboxed stdio servers${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it("server-filesystem works on its allowed folder, and cannot write outside it or read Harbor's data; the control without the sandbox can", async () => {
    const allowed = join(work, 'allowed');
    const outside = join(work, 'outside');
    const t = await host({});
    writeFileSync(join(t.dir, 'secret-note.txt'), 'HARBOR-DATA-SECRET');
    const args = [FILESYSTEM, allowed, outside, t.dir];
    await t.host.registry.add('files', { command: NODE, args, sandbox: { allowWrite: [allowed] } });
    await t.host.registry.add('control', { command: NODE, args });
    await t.host.servers.startAll();
    expect(t.host.servers.get('files')).toMatchObject({ state: { kind: 'ready' }, sandboxed: true });
    expect(t.host.servers.get('control')).toMatchObject({ state: { kind: 'ready' }, sandboxed: false });

    // Inside the allowed folder it works as ever.
    const wrote = await t.call('files', 'write_file', { path: join(allowed, 'inside.txt'), content: 'hello from the sandbox' });
    expect(wrote.isError, text(wrote)).toBeFalsy();
    expect(readFileSync(join(allowed, 'inside.txt'), 'utf8')).toBe('hello from the sandbox');
    const read = await t.call('files', 'read_text_file', { path: join(allowed, 'inside.txt') });
    expect(text(read)).toContain('hello from the sandbox');

    // Outside it: the server itself allows the folder, the sandbox does not.
    const escaped = await t.call('files', 'write_file', { path: join(outside, 'escaped.txt'), content: 'should not land' });
    expect(escaped.isError).toBe(true);
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    const stolen = await t.call('files', 'read_text_file', { path: join(t.dir, 'secret-note.txt') });
    expect(stolen.isError).toBe(true);
    expect(text(stolen)).not.toContain('HARBOR-DATA-SECRET');
    const registry = await t.call('files', 'read_text_file', { path: join(t.dir, 'harbor.json') });
    expect(registry.isError).toBe(true);

    // The control, the same server without the sandbox, can do both.
    const controlWrote = await t.call('control', 'write_file', { path: join(outside, 'control.txt'), content: 'control' });
    expect(controlWrote.isError, text(controlWrote)).toBeFalsy();
    expect(readFileSync(join(outside, 'control.txt'), 'utf8')).toBe('control');
    const controlRead = await t.call('control', 'read_text_file', { path: join(t.dir, 'secret-note.txt') });
    expect(text(controlRead)).toContain('HARBOR-DATA-SECRET');
  }, 60_000);

  it('reaches no network: a loopback listener sees no connection, direct or through the proxy; the control connects', async () => {
    const listener = await countingListener();
    const t = await host({
      probe: { command: NODE, args: [PROBE], sandbox: true },
      control: { command: NODE, args: [PROBE] },
    });
    await t.host.servers.startAll();

    const direct = structured(await t.call('probe', 'connect', { url: listener.url }));
    expect(direct.ok).toBe(false);
    const proxied = structured(await t.call('probe', 'connect_via_proxy', { url: listener.url }));
    expect(proxied).toMatchObject({ ok: false, proxied: true, status: 403 });
    expect(listener.connections()).toBe(0);

    const control = structured(await t.call('control', 'connect', { url: listener.url }));
    expect(control).toMatchObject({ ok: true, body: 'reached' });
    expect(listener.connections()).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("a refused write, read and connection appear in the server's log with the change that allows them, and allowing applies it", async () => {
    const outside = join(work, 'outside');
    const hidden = join(work, 'hidden');
    mkdirSync(hidden);
    writeFileSync(join(hidden, 'note.txt'), 'hidden note');
    const listener = await countingListener();
    const t = await host({ probe: { command: NODE, args: [PROBE], sandbox: { denyRead: [hidden] } } });
    const events: EventPayload<'sandbox.refused'>[] = [];
    disposeAfterTest(t.host.events.onEvent('sandbox.refused', (payload) => events.push(payload)));
    await t.host.servers.startAll();

    expect(structured(await t.call('probe', 'write_file', { path: join(outside, 'x.txt'), text: 'x' })).ok).toBe(false);
    expect(structured(await t.call('probe', 'read_file', { path: join(hidden, 'note.txt') })).ok).toBe(false);
    expect(structured(await t.call('probe', 'read_file', { path: join(t.dir, 'harbor.json') })).ok).toBe(false);
    expect(structured(await t.call('probe', 'connect_via_proxy', { url: listener.url })).ok).toBe(false);
    await waitFor(() => events.length >= 4, 'four refusals');

    const refusals = t.host.sandbox.refusals('probe');
    const find = (kind: string, target: string) => refusals.find((r) => r.kind === kind && r.target === target);
    // Each suggestion names the registry rule that allows it, as the person would write it in harbor.json.
    const writeRule = `"sandbox": { "allowWrite": [${JSON.stringify(outside)}] }`;
    expect(find('write', join(outside, 'x.txt'))?.suggestion).toEqual({ label: `allow writing to ${outside}`, change: { kind: 'allowWrite', path: outside }, rule: writeRule });
    expect(find('read', join(hidden, 'note.txt'))?.suggestion).toEqual({ label: `stop hiding ${hidden}`, change: { kind: 'stopHiding', path: hidden }, rule: `remove ${JSON.stringify(hidden)} from "sandbox": { "denyRead": [...] }` });
    // Harbor's own data is never offered.
    expect(find('read', join(t.dir, 'harbor.json'))).toMatchObject({ kind: 'read' });
    expect(find('read', join(t.dir, 'harbor.json'))?.suggestion).toBeUndefined();
    const domain = `127.0.0.1:${listener.port}`;
    const domainRule = `"sandbox": { "allowedDomains": [${JSON.stringify(domain)}] }`;
    expect(find('network', domain)?.suggestion).toEqual({ label: `allow ${domain}`, change: { kind: 'allowDomain', domain }, rule: domainRule });
    expect(events.map((e) => e.server)).toEqual(expect.arrayContaining(['probe']));
    // The event the card listens to carries the rule too.
    expect(events.find((e) => e.kind === 'write')?.suggestion?.rule).toBe(writeRule);

    // Harbor's own log says what was refused and the rule that would allow it.
    const harborLog = readFileSync(join(t.dir, 'logs', 'harbor.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(harborLog).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ area: 'sandbox', server: 'probe', message: expect.stringContaining(`refused writing to ${join(outside, 'x.txt')}`) }),
        expect.objectContaining({ area: 'sandbox', server: 'probe', message: expect.stringContaining(writeRule) }),
        expect.objectContaining({ area: 'sandbox', server: 'probe', message: expect.stringContaining(`refused a connection to ${domain}`) }),
        expect.objectContaining({ area: 'sandbox', server: 'probe', message: expect.stringContaining(domainRule) }),
      ]),
    );

    const log = t.host.servers.stderrTail('probe');
    expect(log).toContain(`[sandbox] refused writing to ${join(outside, 'x.txt')} (to allow it: allow writing to ${outside})`);
    expect(log).toContain(`[sandbox] refused a connection to ${domain} (to allow it: allow ${domain})`);

    // One click each: the registry gets the rule, the server restarts under it.
    for (const refusal of [find('write', join(outside, 'x.txt')), find('read', join(hidden, 'note.txt')), find('network', domain)]) {
      await t.host.sandbox.allow('probe', refusal!.suggestion!.change);
    }
    await t.host.servers.start('probe');
    expect(structured(await t.call('probe', 'write_file', { path: join(outside, 'x.txt'), text: 'allowed now' })).ok).toBe(true);
    expect(readFileSync(join(outside, 'x.txt'), 'utf8')).toBe('allowed now');
    expect(structured(await t.call('probe', 'read_file', { path: join(hidden, 'note.txt') }))).toMatchObject({ ok: true, text: 'hidden note' });
    expect(structured(await t.call('probe', 'connect_via_proxy', { url: listener.url }))).toMatchObject({ ok: true, body: 'reached' });
    expect(listener.connections()).toBe(1);
    const saved = JSON.parse(readFileSync(join(t.dir, 'harbor.json'), 'utf8')) as { mcpServers: Record<string, { sandbox: unknown }> };
    expect(saved.mcpServers.probe!.sandbox).toEqual({ allowWrite: [outside], allowedDomains: [domain] });
    expect(t.host.sandbox.refusals('probe').filter((r) => r.suggestion)).toEqual([]);
  }, 90_000);

  it("the server's own temporary folder is its TMPDIR, writable, and removed once it stops; the runtime's shared folders are not writable", async () => {
    const npmLogs = join(homedir(), '.npm', '_logs');
    mkdirSync(npmLogs, { recursive: true });
    const stray = join(npmLogs, `harbor-sandbox-test-${process.pid}.log`);
    const t = await host({ probe: { command: NODE, args: [PROBE], sandbox: true } });
    await t.host.servers.startAll();
    const where = structured(await t.call('probe', 'where', {}));
    const own = String(where.tmpdir);
    expect(own).toMatch(new RegExp(`^${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/harbor-sandbox-`));
    expect(structured(await t.call('probe', 'write_file', { path: join(own, 'scratch.txt'), text: 'mine' })).ok).toBe(true);
    expect(readFileSync(join(own, 'scratch.txt'), 'utf8')).toBe('mine');
    expect(structured(await t.call('probe', 'write_file', { path: stray, text: 'shared' })).ok).toBe(false);
    expect(existsSync(stray)).toBe(false);
    await t.host.servers.stop('probe');
    expect(existsSync(own)).toBe(false);
  }, 60_000);

  it('a stubborn sandboxed server is stopped by the stop ladder and leaves no process, its detached grandchild included; its stderr is captured', async () => {
    const marker = uniqueMarker('sandbox-stop');
    markers.push(marker);
    const t = await host({ stubborn: { command: NODE, args: [STUBBORN], env: { HARBOR_SERVER_MARKER: marker, DETACH_GRANDCHILD: '1' }, sandbox: true } });
    await t.host.servers.startAll();
    expect(t.host.servers.get('stubborn').state).toEqual({ kind: 'ready' });
    const running = await waitForMarkedProcesses(marker, 2);
    expect(running.some((p) => p.cmdline.includes('stubborn.mjs')), running.map((p) => p.cmdline).join('\n')).toBe(true);
    // Inside the sandbox: bubblewrap holds the server.
    expect(running.some((p) => /(?:^|\/)bwrap /.test(p.cmdline)), running.map((p) => p.cmdline).join('\n')).toBe(true);
    expect(t.host.servers.stderrTail('stubborn')).toMatch(/stubborn: grandchild \d+ \(detached\)/);

    await t.host.servers.stop('stubborn');
    expect(await waitForNoMarkedProcesses(marker)).toEqual([]);
  }, 60_000);

  it("a sandboxed server's grandchild that left its process group is gone after the server stops", async () => {
    const marker = uniqueMarker('sandbox-grandchild');
    markers.push(marker);
    const t = await host({ probe: { command: NODE, args: [PROBE], env: { HARBOR_SERVER_MARKER: marker }, sandbox: true } });
    await t.host.servers.startAll();
    expect(structured(await t.call('probe', 'spawn_grandchild', {})).ok).toBe(true);
    expect(findMarkedProcesses(marker).filter((p) => p.cmdline.includes('setInterval')).length).toBe(1);
    await t.host.servers.stop('probe');
    expect(await waitForNoMarkedProcesses(marker)).toEqual([]);
  }, 60_000);
});

describe('a machine where the sandbox cannot run', () => {
  it('refuses to start a sandboxed server, saying why and how to run it unsandboxed; turned off for that server, it runs', async () => {
    const marker = uniqueMarker('sandbox-unavailable');
    markers.push(marker);
    const config = { command: NODE, args: [PROBE], env: { HARBOR_SERVER_MARKER: marker }, sandbox: true };
    const t = await host(
      { probe: config },
      { sandbox: { checkAvailability: async () => ({ available: false, reason: 'bubblewrap is not installed', fix: 'install bubblewrap' }) } },
    );
    await t.host.servers.startAll();
    const state = t.host.servers.get('probe').state;
    expect(state).toMatchObject({ kind: 'error', code: 'SANDBOX_UNAVAILABLE' });
    const message = state.kind === 'error' ? state.message : '';
    expect(message).toContain('bubblewrap is not installed');
    expect(message).toContain('install bubblewrap');
    expect(message).toContain('"sandbox": false');
    // Nothing ran: no process of the server was ever started.
    expect(findMarkedProcesses(marker)).toEqual([]);
    await expect(t.host.sandbox.status()).resolves.toMatchObject({ available: false, reason: 'bubblewrap is not installed' });

    await t.host.registry.update('probe', { ...config, sandbox: false });
    await t.host.servers.start('probe');
    expect(t.host.servers.get('probe')).toMatchObject({ state: { kind: 'ready' }, sandboxed: false });
  }, 30_000);
});
