/**
 * Security, issue #27 finding 14: a request that carries a credential never follows a redirect.
 * fetch keeps the Authorization header on a redirect to another path of the same origin
 * (`/a/mcp` → 307 → `/b/mcp`), and a header the registry sets (an API key) even on a redirect to
 * another origin. Real HTTP servers on 127.0.0.1, a real Host; the OAuth token comes from the real
 * authorization server of test/fixtures/auth (a machine grant: no browser).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { startAuthFixture, type RunningAuthFixture } from '../fixtures/auth/start';
import { createTestHost, type TestHost } from '../helpers/host';

let fixture: RunningAuthFixture | undefined;
const hosts: TestHost[] = [];
const listeners: Server[] = [];

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  for (const listener of listeners.splice(0)) await new Promise((resolve) => listener.close(resolve));
  await fixture?.kill();
  fixture = undefined;
});

interface Seen {
  path: string;
  host: string;
  authorization?: string;
  apiKey?: string;
}

/**
 * Server A at /a/mcp redirects every request that carries a credential to `target(port)`; /b/mcp
 * (server B, or anyone) records what it was sent. With `protectedBy`, A is an OAuth-protected
 * resource of that authorization server (401 with resource_metadata until a token comes).
 */
async function redirectingServer(target: (port: number) => string, protectedBy?: string): Promise<{ url: string; seenAtB: Seen[] }> {
  const seenAtB: Seen[] = [];
  let port = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const authorization = request.headers.authorization;
    const apiKey = request.headers['x-api-key'] as string | undefined;
    if (path.startsWith('/.well-known/oauth-protected-resource') && protectedBy) {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ resource: `http://127.0.0.1:${port}/a/mcp`, authorization_servers: [protectedBy], bearer_methods_supported: ['header'] }));
    }
    if (path === '/a/mcp') {
      if (protectedBy && !authorization) {
        response.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/a/mcp"` });
        return response.end();
      }
      response.writeHead(307, { location: target(port) });
      return response.end();
    }
    if (path === '/b/mcp') {
      seenAtB.push({ path, host: request.headers.host ?? '', ...(authorization ? { authorization } : {}), ...(apiKey ? { apiKey } : {}) });
      response.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
      return response.end();
    }
    response.writeHead(404);
    response.end();
  });
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/a/mcp`, seenAtB };
}

async function host(servers: Record<string, Record<string, unknown>>, secrets = new MemorySecretStore()): Promise<TestHost> {
  const t = await createTestHost(servers, { secrets, connectTimeoutMs: 15_000 });
  hosts.push(t);
  return t;
}

describe("a remote server's credentials never follow a redirect", () => {
  it('an OAuth token for /a/mcp is not sent to /b/mcp of the same origin; the server ends in an error naming both addresses', async () => {
    fixture = await startAuthFixture(['--no-registration', '--client-credentials', '--client-id', 'harbor-ci', '--client-secret', 'ci-secret-value-0451']);
    const a = await redirectingServer((port) => `http://127.0.0.1:${port}/b/mcp`, fixture.origin);
    const t = await host(
      { remote: { url: a.url, oauth: { grant: 'client_credentials', clientId: 'harbor-ci', clientSecret: '${secret:ci-secret}' } } },
      new MemorySecretStore({ 'ci-secret': 'ci-secret-value-0451' }),
    );
    await t.host.servers.startAll();
    // The token was issued (so a request to A carried it) …
    expect((await fixture.stats()).clientCredentialsGrants).toBeGreaterThanOrEqual(1);
    // … and B never saw it.
    expect(a.seenAtB.filter((seen) => seen.authorization)).toEqual([]);
    const state = t.host.servers.get('remote').state;
    expect(state.kind).toBe('error');
    expect(state.kind === 'error' ? state.message : '').toContain('/b/mcp');
  }, 60_000);

  it('a configured Authorization header is not sent to another path of the same origin', async () => {
    const a = await redirectingServer((port) => `http://127.0.0.1:${port}/b/mcp`);
    const t = await host({ remote: { url: a.url, headers: { Authorization: 'Bearer STATIC-TOKEN-OF-A' } } });
    await t.host.servers.startAll();
    expect(a.seenAtB).toEqual([]);
    expect(t.host.servers.get('remote').state.kind).toBe('error');
  }, 60_000);

  it('a configured API-key header is not sent to another origin', async () => {
    const b = await redirectingServer(() => 'http://127.0.0.1:9/unused');
    const a = await redirectingServer(() => b.url.replace('/a/mcp', '/b/mcp'));
    const t = await host({ remote: { url: a.url, headers: { 'X-Api-Key': 'API-KEY-OF-A' } } });
    await t.host.servers.startAll();
    expect(b.seenAtB).toEqual([]);
    expect(t.host.servers.get('remote').state.kind).toBe('error');
  }, 60_000);
});

describe('held: a token is never sent to another server', () => {
  it("server A's OAuth token never reaches server B, which asks for none", async () => {
    fixture = await startAuthFixture(['--no-registration', '--client-credentials', '--client-id', 'harbor-ci', '--client-secret', 'ci-secret-value-0451']);
    const seenAtB: Seen[] = [];
    const b = createServer((request, response) => {
      seenAtB.push({ path: request.url ?? '', host: request.headers.host ?? '', ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
      response.writeHead(404);
      response.end();
    });
    listeners.push(b);
    await new Promise<void>((resolve) => b.listen(0, '127.0.0.1', resolve));
    const t = await host(
      {
        a: { url: fixture.mcp, oauth: { grant: 'client_credentials', clientId: 'harbor-ci', clientSecret: '${secret:ci-secret}' } },
        b: { url: `http://127.0.0.1:${(b.address() as { port: number }).port}/mcp` },
      },
      new MemorySecretStore({ 'ci-secret': 'ci-secret-value-0451' }),
    );
    await t.host.servers.startAll();
    expect(t.host.servers.get('a').state.kind).toBe('ready');
    expect((await fixture.stats()).clientCredentialsGrants).toBe(1);
    // B was tried (and failed: it serves nothing), and no request to it carried a token.
    expect(seenAtB.length).toBeGreaterThan(0);
    expect(seenAtB.filter((seen) => seen.authorization)).toEqual([]);
  }, 60_000);
});
