/**
 * Browser mode's second origin, over real sockets: the app sandbox server serves an open app's
 * proxy page with the Host's CSP for it, only to a frame of the Harbor page, and refuses every
 * other request the way the page's own server does (Host header, token, what asks, who frames).
 * The page itself may frame exactly that origin.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../main/dispatch';
import { bindCommands } from '../../main/contract-handlers';
import { createCliHost } from '../../main/cli/host-factory';
import type { Host } from '../../main/host/host';
import { AppSandboxServer } from '../../main/web/app-sandbox-server';
import { WebServer } from '../../main/web/server';

interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

function send(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', address = '127.0.0.1'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const PAGE = 'http://127.0.0.1:4242';
const POLICY = { csp: "default-src 'none'; connect-src 'none'", allow: 'clipboard-write', html: '<!doctype html><p>the app</p>' };

/** Whether this machine has an IPv6 loopback to hold (a container may have none; the server then serves 127.0.0.1 alone). */
async function hasIpv6Loopback(): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });
}
const ipv6Loopback = await hasIpv6Loopback();

describe('the app sandbox server', () => {
  let sandbox: AppSandboxServer;
  beforeEach(async () => {
    sandbox = await AppSandboxServer.start({ pageOrigins: [PAGE, 'http://localhost:4242'], policyFor: (id) => (id === 'open-app' ? POLICY : undefined) });
  });
  afterEach(async () => {
    await sandbox.dispose();
  });

  const pathOf = (id: string, query = `parent=${encodeURIComponent(PAGE)}&scheme=dark`) => `${new URL(sandbox.urlFor(id)).pathname}?${query}`;
  const frame = { 'sec-fetch-dest': 'iframe' };

  it('serves an open app’s proxy page with its CSP, framed only by the Harbor page, without referrer or caching', async () => {
    // Handed out on localhost: another site than the page's 127.0.0.1, so the browser gives it its own process (#27.10).
    expect(sandbox.origin).toBe(`http://localhost:${sandbox.port}`);
    expect(sandbox.urlFor('open-app').startsWith(`${sandbox.origin}/`)).toBe(true);
    const frame = { 'sec-fetch-dest': 'iframe', host: `localhost:${sandbox.port}` };
    const reply = await send(sandbox.port, pathOf('open-app'), frame);
    expect(reply.status).toBe(200);
    const documentUrl = /frame-src (\S+);/.exec(String(reply.headers['content-security-policy']))?.[1] ?? '';
    expect(documentUrl).toMatch(new RegExp(`^${sandbox.origin}/doc/[A-Za-z0-9_-]{24}$`));
    expect(reply.headers['content-security-policy']).toMatch(new RegExp(`^default-src 'none'; script-src 'nonce-[A-Za-z0-9_-]+'; .* frame-ancestors ${PAGE}$`));
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['permissions-policy']).toContain('camera=()');
    expect(reply.headers['x-frame-options']).toBeUndefined();
    // The page the proxy will talk to, the app frame's sandbox and allow list, baked in.
    expect(reply.body).toContain(`"parentOrigin":"${PAGE}"`);
    expect(reply.body).toContain('"innerSandbox":"allow-scripts allow-forms"');
    expect(reply.body).toContain('"allow":"clipboard-write"');
    expect(reply.body).toContain('"colorScheme":"dark"');
    expect(reply.body).toContain(`"documentUrl":"${documentUrl}"`);
    const head = await send(sandbox.port, pathOf('open-app'), frame, 'HEAD');
    expect([head.status, head.body]).toEqual([200, '']);
    // The app's document: once, to a frame, with the app's CSP, framed only from the sandbox origin.
    const documentPath = new URL(documentUrl).pathname;
    expect(documentPath).not.toContain(new URL(sandbox.urlFor('open-app')).pathname.split('/')[1]!);
    expect((await send(sandbox.port, documentPath, { 'sec-fetch-dest': 'document' })).status).toBe(403);
    const document = await send(sandbox.port, documentPath, frame);
    expect([document.status, document.body]).toEqual([200, POLICY.html]);
    expect(document.headers['content-security-policy']).toBe(`${POLICY.csp}; frame-ancestors ${sandbox.origin} ${PAGE}`);
    expect(document.headers['referrer-policy']).toBe('no-referrer');
    expect((await send(sandbox.port, documentPath, frame)).status).toBe(404);
    expect((await send(sandbox.port, '/doc/made-up-ticket', frame)).status).toBe(404);
  });

  it('answers on 127.0.0.1 too (a page opened on localhost frames its apps there), naming that origin throughout', async () => {
    const loopback = `http://127.0.0.1:${sandbox.port}`;
    const reply = await send(sandbox.port, pathOf('open-app', `parent=${encodeURIComponent('http://localhost:4242')}`), frame);
    const documentUrl = /frame-src (\S+);/.exec(String(reply.headers['content-security-policy']))?.[1] ?? '';
    expect(documentUrl).toMatch(new RegExp(`^${loopback}/doc/[A-Za-z0-9_-]{24}$`));
    const document = await send(sandbox.port, new URL(documentUrl).pathname, frame);
    expect(document.headers['content-security-policy']).toBe(`${POLICY.csp}; frame-ancestors ${loopback} http://localhost:4242`);
  });

  it.skipIf(!ipv6Loopback)('holds [::1] on its port too: `localhost` may resolve there first, and no other local process may answer for the sandbox (skipped: this machine has no IPv6 loopback to hold)', async () => {
    // A browser tries ::1 for localhost before 127.0.0.1; a squatter on [::1]:PORT would be served the
    // proxy's address (token included) and be framed as the sandbox origin, holding the app's bridge.
    const viaV6 = await send(sandbox.port, pathOf('open-app'), { ...frame, host: `localhost:${sandbox.port}` }, 'GET', '::1');
    expect(viaV6.status).toBe(200);
    expect(viaV6.body).toContain('Harbor app sandbox');
  });

  it('refuses what is not a frame of the Harbor page asking for an open app', async () => {
    const port = sandbox.port;
    const token = new URL(sandbox.urlFor('open-app')).pathname.split('/')[1]!;
    expect((await send(port, pathOf('open-app'), { ...frame, host: `evil.example:${port}` })).status).toBe(403); // DNS rebinding
    expect((await send(port, pathOf('open-app').replace(token, 'wrong-token'), frame)).status).toBe(404);
    expect((await send(port, pathOf('open-app'), { 'sec-fetch-dest': 'document' })).status).toBe(403); // opened on its own
    expect((await send(port, pathOf('open-app'), { 'sec-fetch-dest': 'empty' })).status).toBe(403); // fetched by a script
    expect((await send(port, pathOf('open-app'), { ...frame, origin: 'https://evil.example' })).status).toBe(403);
    expect((await send(port, pathOf('open-app', `parent=${encodeURIComponent('https://evil.example')}`), frame)).status).toBe(403);
    expect((await send(port, pathOf('open-app', ''), frame)).status).toBe(403);
    expect((await send(port, pathOf('closed-app'), frame)).status).toBe(404);
    expect((await send(port, pathOf('open-app'), frame, 'POST')).status).toBe(405);
    expect((await send(port, `/${token}/app/open-app/extra?parent=${encodeURIComponent(PAGE)}`, frame)).status).toBe(404);
    expect((await send(port, `/${token}/../app/open-app?parent=${encodeURIComponent(PAGE)}`, frame)).status).toBe(404);
    // localhost is the page too; the answer then names it exactly.
    const local = await send(port, pathOf('open-app', `parent=${encodeURIComponent('http://localhost:4242')}`), frame);
    expect(local.headers['content-security-policy']).toMatch(/frame-ancestors http:\/\/localhost:4242$/);
  });
});

describe('browser mode with apps', () => {
  let dir: string;
  let host: Host;
  let server: WebServer;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-apps-web-'));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
    const configPath = join(dir, 'harbor.json');
    writeFileSync(configPath, JSON.stringify({ mcpServers: {} }));
    host = await createCliHost({ json: false, config: configPath, dataDir: dir }, 'web', { useLoginShellPath: false });
    server = await WebServer.start({ rendererDir, port: 0, dispatch: createDispatcher(bindCommands(host)), events: host.events, appPolicy: (id) => host.apps.sandboxPolicy(id) });
  });
  afterEach(async () => {
    await server.dispose();
    await host.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the sandbox on its own port, and the page may frame that origin and nothing else', async () => {
    const sandbox = server.appSandbox!;
    expect(sandbox.port).not.toBe(server.port);
    const page = await send(server.port, '/');
    expect(page.headers['content-security-policy']).toContain(`frame-src ${sandbox.origin} http://127.0.0.1:${sandbox.port};`);
    // The sandbox is not served on the page's origin, and the page's files not on the sandbox's.
    expect((await send(server.port, new URL(sandbox.urlFor('x')).pathname)).status).toBe(404);
    expect((await send(sandbox.port, '/index.html', { 'sec-fetch-dest': 'iframe' })).status).toBe(404);
  });

  it('closes the sandbox port with the server', async () => {
    const { port } = server.appSandbox!;
    await server.dispose();
    await expect(send(port, '/')).rejects.toThrow(/ECONNREFUSED/);
  });
});
