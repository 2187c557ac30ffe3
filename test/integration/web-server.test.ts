/**
 * Browser mode's server in-process, over a real Host and real sockets: what the CLI test cannot
 * reach from outside — Host events fanned out to every tab, a symlink out of the renderer folder,
 * and a dispose that closes every socket and the port.
 */
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createCliHost } from '../../main/cli/host-factory';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher } from '../../main/dispatch';
import type { Host } from '../../main/host/host';
import { WebServer } from '../../main/web/server';

let dir: string;
let host: Host;
let server: WebServer;
const socketsCut: string[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'harbor-web-server-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.css'), 'body{}');
  writeFileSync(join(dir, 'secret.txt'), 'top secret');
  symlinkSync(join(dir, 'secret.txt'), join(rendererDir, 'assets', 'link.txt'));
  const configPath = join(dir, 'harbor.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: { notes: { command: 'node', args: ['server.js'] } } }));
  host = await createCliHost({ json: false, config: configPath, dataDir: dir }, 'web', { useLoginShellPath: false });
  server = await WebServer.start({
    rendererDir,
    port: 0,
    dispatch: createDispatcher(bindCommands(host)),
    events: host.events,
    reportSocketCut: (reason) => socketsCut.push(reason),
  });
  socketsCut.length = 0;
});

afterEach(async () => {
  await server.dispose();
  await host.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function connect(): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, {
    origin: `http://127.0.0.1:${server.port}`,
  });
  await once(socket, 'open');
  return socket;
}

function get(path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('WebServer', () => {
  it('binds 127.0.0.1 only and puts the token in the URL fragment', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=${server.token}`);
  });

  it('forwards Host events to every open socket as {event, payload}', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    const received = [a, b].map((s) => once(s, 'message').then(([data]) => JSON.parse(String(data)) as unknown));
    host.shell.emit('app.update', { state: 'checking', currentVersion: '1.0.0', autoUpdate: true });
    for (const frame of await Promise.all(received)) {
      expect(frame).toEqual({ event: 'app.update', payload: { state: 'checking', currentVersion: '1.0.0', autoUpdate: true } });
    }
    a.terminate();
    b.terminate();
  });

  it('serves the servers in the registry file', async () => {
    const socket = await connect();
    const reply = once(socket, 'message').then(([data]) => JSON.parse(String(data)) as { id: number; result: { ok: boolean; value: { name: string; transport: string }[] } });
    socket.send(JSON.stringify({ id: 9, command: 'servers.list', payload: {} }));
    const { id, result } = await reply;
    expect(id).toBe(9);
    expect(result.ok).toBe(true);
    expect(result.value.map((s) => [s.name, s.transport])).toEqual([['notes', 'stdio']]);
    socket.terminate();
  });

  it('serves files with their content type, and not through a symlink out of the folder', async () => {
    expect(await get('/assets/app.css')).toMatchObject({ status: 200, type: 'text/css; charset=utf-8', body: 'body{}' });
    const viaLink = await get('/assets/link.txt');
    expect(viaLink.status).toBe(404);
    expect(viaLink.body).not.toContain('top secret');
    expect((await get('/../secret.txt')).body).not.toContain('top secret');
    expect((await get('/assets')).status).toBe(404); // a folder is not a file
  });

  it('a socket cut for a bad frame is said, with why (the page only sees "The connection to Harbor closed")', async () => {
    const socket = await connect();
    const closed = once(socket, 'close');
    socket.send('x'.repeat(64 * 1024 * 1024)); // over the frame limit
    const [code] = (await closed) as [number];
    expect(code).toBe(1009);
    expect(socketsCut).toEqual([expect.stringMatching(/^a page's connection was cut: .*max payload size exceeded/i)]);
  });

  it('dispose closes open sockets (1001) and the port', async () => {
    const socket = await connect();
    const closed = once(socket, 'close');
    const port = server.port;
    await server.dispose();
    const [code] = (await closed) as [number];
    expect(code).toBe(1001);
    await expect(get('/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(port).toBeGreaterThan(0);
    expect(host.events.listenerCount).toBe(0);
  });
});
