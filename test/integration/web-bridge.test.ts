/**
 * The renderer's WebSocket bridge (renderer/src/bridge/ws-transport.ts) against the real browser
 * mode server and a real Host, using Node's own WHATWG WebSocket — the same API the page uses in
 * Chromium. Node sends no Origin by itself, so the socket factory adds the page's own.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApi } from '../../preload/contract';
import { createCliHost } from '../../main/cli/host-factory';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher } from '../../main/dispatch';
import type { Host } from '../../main/host/host';
import { WebServer } from '../../main/web/server';
import { WebSocketTransport } from '../../renderer/src/bridge/ws-transport';
import { waitFor } from '../helpers/wait-for';

let dir: string;
let host: Host;
let server: WebServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'harbor-web-bridge-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html>');
  const configPath = join(dir, 'harbor.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: { notes: { command: 'node', args: ['server.js'] } } }));
  host = await createCliHost({ json: false, config: configPath, dataDir: dir }, 'web', { useLoginShellPath: false });
  server = await WebServer.start({
    rendererDir: join(dir, 'renderer'),
    port: 0,
    dispatch: createDispatcher(bindCommands(host)),
    events: host.events,
  });
});

afterEach(async () => {
  await server.dispose();
  await host.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** As the page would: same-origin socket, token in the query. */
function transport(token = server.token): WebSocketTransport {
  const origin = `http://127.0.0.1:${server.port}`;
  const NodeWebSocket = WebSocket as unknown as new (url: string, init: { headers: Record<string, string> }) => WebSocket;
  return new WebSocketTransport(`ws://127.0.0.1:${server.port}/ws?token=${token}`, (url) => new NodeWebSocket(url, { headers: { origin } }));
}

describe('the web bridge', () => {
  it('gives the same HarborApi as the preload: commands, results and events', async () => {
    const t = transport();
    expect(t.status().state).toBe('connecting');
    const api = buildApi(t);
    const info = await api.app.info({});
    expect(info).toMatchObject({ ok: true, value: { mode: 'web' } });
    expect(t.status().state).toBe('open');

    const servers = await api.servers.list({});
    expect(servers.ok && servers.value.map((s) => s.name)).toEqual(['notes']);

    const missing = await api.servers.stop({ name: 'nope' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'SERVER_NOT_FOUND' } });

    const seen: unknown[] = [];
    api.on.app.update((payload) => seen.push(payload));
    host.shell.emit('app.update', { state: 'checking', currentVersion: '1.0.0', autoUpdate: true });
    await waitFor(() => seen.length === 1, 'the event');
    expect(seen).toEqual([{ state: 'checking', currentVersion: '1.0.0', autoUpdate: true }]);
  });

  it('reports a refused handshake (wrong token) as a closed status and error results', async () => {
    const t = transport('wrong');
    const result = await buildApi(t).app.info({});
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toContain('refused');
    expect(t.status()).toMatchObject({ state: 'closed' });
  });

  it('fails calls promptly once the server has gone', async () => {
    const t = transport();
    const api = buildApi(t);
    expect((await api.app.info({})).ok).toBe(true);
    await server.dispose();
    await waitFor(() => t.status().state === 'closed', 'the transport to close');
    const after = await api.app.info({});
    expect(after.ok).toBe(false);
    expect(!after.ok && after.error.message).toContain('closed');
  });
});
