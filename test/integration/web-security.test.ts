/**
 * Browser mode as a user (and an attacker) meets it: the real built CLI (`harbor web --port 0`) in
 * its own process, real HTTP and WebSocket requests on 127.0.0.1. Every refusal the server must
 * make at the handshake is asserted by its status code; every accepted path by a real round trip.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin', 'harbor.js');
const BUILT_CLI = join(ROOT, 'out', 'main', 'cli.js');
const BUILT_PAGE = join(ROOT, 'out', 'renderer', 'index.html');

interface WebProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: URL;
  readonly port: number;
  readonly token: string;
  stdout(): string;
  stderr(): string;
}

const started: ChildProcessWithoutNullStreams[] = [];
const tempDirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-web-'));
  tempDirs.push(dir);
  return dir;
}

function spawnHarbor(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  started.push(child);
  return child;
}

/** Starts `harbor web --port 0` on a temp config and waits for its one stdout line. */
async function startWeb(extraArgs: string[] = [], config = { mcpServers: {} }): Promise<WebProcess> {
  const dir = tempDir();
  const configPath = join(dir, 'harbor.json');
  writeFileSync(configPath, JSON.stringify(config));
  const child = spawnHarbor(['web', '--port', '0', '--config', configPath, '--data-dir', dir, ...extraArgs]);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const line = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL line within 20 s. stderr:\n${stderr}`)), 20_000);
    const onData = () => {
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolvePromise(stdout.slice(0, newline));
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`harbor web exited with ${code} before printing its URL. stderr:\n${stderr}`));
    });
  });
  const { url } = JSON.parse(line) as { url: string };
  const parsed = new URL(url);
  const token = /^#token=(.+)$/.exec(parsed.hash)?.[1];
  if (!token) throw new Error(`URL without a token: ${url}`);
  return { child, url: parsed, port: Number(parsed.port), token, stdout: () => stdout, stderr: () => stderr };
}

/** A raw WebSocket handshake with exactly the headers given; resolves the HTTP status (101 = accepted). */
function handshake(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolvePromise(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolvePromise(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A plain HTTP request with the path sent byte for byte (no client-side normalisation). */
function httpGet(
  port: number,
  path: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      method: options.method ?? 'GET',
      headers: { Host: options.host ?? `127.0.0.1:${port}` },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A real client the way the page connects: token in the query, Origin = the page's own. */
async function connect(web: WebProcess): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${web.port}/ws?token=${web.token}`, {
    origin: `http://127.0.0.1:${web.port}`,
  });
  await once(socket, 'open');
  return socket;
}

/** Sends one text frame and waits for the reply whose id matches (or the first reply, for id -1). */
function exchange(socket: WebSocket, frame: string, expectId: number): Promise<{ id: number; result: unknown }> {
  return new Promise((resolvePromise) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
      if (message.id !== expectId) return;
      socket.off('message', onMessage);
      resolvePromise(message as { id: number; result: unknown });
    };
    socket.on('message', onMessage);
    socket.send(frame);
  });
}

function waitForExit(child: ChildProcessWithoutNullStreams, timeoutMs: number): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolvePromise(code);
    });
  });
}

beforeAll(() => {
  if (!existsSync(BUILT_CLI) || !existsSync(BUILT_PAGE)) {
    throw new Error('Browser mode tests need the build: run "npx electron-vite build" (npm test does) first.');
  }
});

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('harbor web: the WebSocket handshake', () => {
  let web: WebProcess;
  let page: string;
  beforeAll(async () => {
    web = await startWeb();
    page = `http://127.0.0.1:${web.port}`;
  });

  it('prints one URL line on 127.0.0.1 with a 256-bit token', () => {
    expect(web.url.hostname).toBe('127.0.0.1');
    expect(web.url.pathname).toBe('/');
    expect(Buffer.from(web.token, 'base64url')).toHaveLength(32);
  });

  it('refuses a handshake without a token: 401', async () => {
    expect(await handshake(web.port, '/ws', { Host: `127.0.0.1:${web.port}`, Origin: page })).toBe(401);
    expect(await handshake(web.port, '/ws?token=', { Host: `127.0.0.1:${web.port}`, Origin: page })).toBe(401);
  });

  it('refuses a wrong token, even one of the right length: 401', async () => {
    const sameLength = (web.token[0] === 'A' ? 'B' : 'A') + web.token.slice(1);
    for (const token of ['nope', sameLength, `${web.token}x`]) {
      expect(await handshake(web.port, `/ws?token=${token}`, { Host: `127.0.0.1:${web.port}`, Origin: page })).toBe(401);
    }
  });

  it('refuses another Origin, or none: 403', async () => {
    const path = `/ws?token=${web.token}`;
    const host = `127.0.0.1:${web.port}`;
    expect(await handshake(web.port, path, { Host: host, Origin: 'http://evil.example' })).toBe(403);
    expect(await handshake(web.port, path, { Host: host, Origin: `http://127.0.0.1:${web.port + 1}` })).toBe(403);
    expect(await handshake(web.port, path, { Host: host, Origin: `https://127.0.0.1:${web.port}` })).toBe(403);
    expect(await handshake(web.port, path, { Host: host, Origin: 'null' })).toBe(403);
    expect(await handshake(web.port, path, { Host: host })).toBe(403);
  });

  it('refuses a foreign Host header (DNS rebinding): 403', async () => {
    const path = `/ws?token=${web.token}`;
    expect(await handshake(web.port, path, { Host: `evil.example:${web.port}`, Origin: `http://evil.example:${web.port}` })).toBe(403);
    expect(await handshake(web.port, path, { Host: `evil.example:${web.port}`, Origin: page })).toBe(403);
    expect(await handshake(web.port, path, { Host: `127.0.0.1:${web.port + 1}`, Origin: page })).toBe(403);
  });

  it('accepts the page itself, as 127.0.0.1 or localhost: 101', async () => {
    const path = `/ws?token=${web.token}`;
    expect(await handshake(web.port, path, { Host: `127.0.0.1:${web.port}`, Origin: page })).toBe(101);
    expect(await handshake(web.port, path, { Host: `localhost:${web.port}`, Origin: `http://localhost:${web.port}` })).toBe(101);
    // …but not one name in Host and the other in Origin: that is not the page's own origin.
    expect(await handshake(web.port, path, { Host: `localhost:${web.port}`, Origin: page })).toBe(403);
  });

  it('has nothing but /ws to upgrade: 404', async () => {
    expect(await handshake(web.port, `/other?token=${web.token}`, { Host: `127.0.0.1:${web.port}`, Origin: page })).toBe(404);
  });
});

describe('harbor web: the contract over the socket', () => {
  let web: WebProcess;
  let socket: WebSocket;
  beforeAll(async () => {
    web = await startWeb();
    socket = await connect(web);
  });
  afterAll(() => socket?.terminate());

  it('round-trips app.info with mode "web" and the config in use', async () => {
    const reply = await exchange(socket, JSON.stringify({ id: 1, command: 'app.info', payload: {} }), 1);
    expect(reply.result).toMatchObject({
      ok: true,
      value: { name: 'Harbor', mode: 'web', configPath: expect.stringContaining('harbor-web-') as unknown },
    });
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((reply.result as { value: { version: string } }).value.version).toBe(pkg.version);
  });

  it('lists servers from the registry file', async () => {
    const reply = await exchange(socket, JSON.stringify({ id: 2, command: 'servers.list', payload: {} }), 2);
    expect(reply.result).toEqual({ ok: true, value: [] });
  });

  it('answers an unknown command with UNKNOWN_COMMAND', async () => {
    const reply = await exchange(socket, JSON.stringify({ id: 3, command: 'app.shutdown', payload: {} }), 3);
    expect(reply.result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
  });

  it('answers a payload the contract refuses with BAD_REQUEST', async () => {
    const reply = await exchange(socket, JSON.stringify({ id: 4, command: 'app.info', payload: { extra: 1 } }), 4);
    expect(reply.result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const missing = await exchange(socket, JSON.stringify({ id: 5, command: 'servers.stop', payload: {} }), 5);
    expect(missing.result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('answers malformed frames with BAD_REQUEST and keeps serving', async () => {
    for (const frame of ['not json', '[]', '{"command":"app.info"}', '{"id":"x","command":"app.info","payload":{}}']) {
      const reply = await exchange(socket, frame, -1);
      expect(reply.result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    }
    const extraKey = await exchange(socket, JSON.stringify({ id: 6, command: 'app.info', payload: {}, admin: true }), 6);
    expect(extraKey.result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const binary = new Promise<unknown>((resolvePromise) => socket.once('message', (data) => resolvePromise(JSON.parse(String(data)))));
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await binary).toMatchObject({ id: -1, result: { ok: false, error: { code: 'BAD_REQUEST' } } });
    const after = await exchange(socket, JSON.stringify({ id: 7, command: 'app.info', payload: {} }), 7);
    expect(after.result).toMatchObject({ ok: true });
  });
});

describe('harbor web: static files', () => {
  let web: WebProcess;
  beforeAll(async () => {
    web = await startWeb();
  });

  it('serves the page with the strict CSP of its meta tag (plus frame-ancestors, header-only; frame-src narrowed to its own app sandbox), and nosniff', async () => {
    const res = await httpGet(web.port, '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("script-src 'self'");
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(res.body)?.[1];
    // The app sandbox's port under both loopback names (localhost handed out: another site than the page).
    const frameSrc = /frame-src (http:\/\/localhost:(\d+) http:\/\/127\.0\.0\.1:\2);/.exec(String(csp));
    expect(Number(frameSrc?.[2])).not.toBe(web.port);
    expect(`${meta?.replace(/frame-src [^;]*$/, `frame-src ${frameSrc?.[1]}`)}; frame-ancestors 'none'`).toBe(csp);
  });

  it('serves the bundle with a JavaScript content type', async () => {
    const page = await httpGet(web.port, '/');
    const script = /src="\.?(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const res = await httpGet(web.port, script!);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it('never serves a file outside the renderer folder', async () => {
    const secrets = [readFileSync(join(ROOT, 'package.json'), 'utf8'), readFileSync(BUILT_CLI, 'utf8')];
    const attempts = [
      '/../package.json',
      '/../../package.json',
      '/%2e%2e/package.json',
      '/%2e%2e/%2e%2e/package.json',
      '/..%2f..%2fpackage.json',
      '/%2e%2e%2f%2e%2e%2fpackage.json',
      '/assets/../../main/cli.js',
      '/..%5c..%5cpackage.json',
      '/../main/cli.js',
      '/%2e%2e/main/cli.js',
      '//etc/passwd',
      '/%00/index.html',
      '/%E0%A4%A',
    ];
    for (const path of attempts) {
      const res = await httpGet(web.port, path);
      expect(res.status, path).not.toBe(200);
      for (const secret of secrets) expect(res.body).not.toContain(secret.slice(0, 200));
    }
  });

  it('answers only to its own Host header (403) and only GET/HEAD (405)', async () => {
    expect((await httpGet(web.port, '/', { host: `evil.example:${web.port}` })).status).toBe(403);
    expect((await httpGet(web.port, '/', { host: 'evil.example' })).status).toBe(403);
    expect((await httpGet(web.port, '/', { host: `localhost:${web.port}` })).status).toBe(200);
    const post = await httpGet(web.port, '/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const head = await httpGet(web.port, '/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });
});

describe('harbor web: lifecycle', () => {
  it('exits 0 promptly on SIGTERM, closing open sockets, with one line on stdout', async () => {
    const web = await startWeb(['--json']);
    const socket = await connect(web);
    const closed = once(socket, 'close');
    web.child.kill('SIGTERM');
    expect(await waitForExit(web.child, 10_000)).toBe(0);
    const [code] = (await closed) as [number];
    expect([1001, 1006]).toContain(code);
    expect(web.stdout().trim().split('\n')).toEqual([JSON.stringify({ url: web.url.href })]);
  });

  it('exits 0 on SIGINT (Ctrl+C)', async () => {
    const web = await startWeb();
    web.child.kill('SIGINT');
    expect(await waitForExit(web.child, 10_000)).toBe(0);
    expect(web.stdout().trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 and says to build when the renderer is missing', async () => {
    const dir = tempDir();
    const child = spawnHarbor(['web', '--port', '0', '--config', join(dir, 'harbor.json'), '--data-dir', dir], {
      HARBOR_RENDERER_DIR: join(dir, 'no-renderer'),
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    expect(await waitForExit(child, 15_000)).toBe(2);
    expect(stderr).toContain('npm run build');
    expect(stdout).toBe('');
  });

  it('exits 2 on a bad --port, and on a port already taken', async () => {
    const dir = tempDir();
    const bad = spawnHarbor(['web', '--port', 'eighty', '--config', join(dir, 'harbor.json'), '--data-dir', dir]);
    expect(await waitForExit(bad, 15_000)).toBe(2);

    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const taken = spawnHarbor(['web', '--port', String(port), '--config', join(dir, 'harbor.json'), '--data-dir', dir]);
      let stderr = '';
      taken.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      expect(await waitForExit(taken, 15_000)).toBe(2);
      expect(stderr).toContain('--port');
    } finally {
      blocker.close();
    }
  });
});
