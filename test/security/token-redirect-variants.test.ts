/**
 * Finding 14 attacked again (#27, the outsider's round): every way a redirect could carry a
 * credential on — the same path with another query, another case, a 308, a chain of redirects, a
 * Request object whose headers are not in `init` — ends before anything is sent to the new address.
 * A real HTTP server on 127.0.0.1 records what reached each address.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutCredentialRedirects } from '../../main/host/servers/credential-redirects';

let server: Server;
let base: string;
const seen: { path: string; authorization?: string; apiKey?: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/a/mcp' && !url.searchParams.has('landed')) {
      const to = url.searchParams.get('to') ?? '/a/mcp?landed=1';
      response.writeHead(Number(url.searchParams.get('status') ?? 307), { location: to });
      return response.end();
    }
    seen.push({ path: `${url.pathname}${url.search}`, ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}), ...(request.headers['x-api-key'] ? { apiKey: String(request.headers['x-api-key']) } : {}) });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 30_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const guarded = withoutCredentialRedirects((input, init) => globalThis.fetch(input, init), 'a', ['X-Api-Key']);

describe('a credential never follows a redirect, in any spelling', () => {
  const cases: [string, string][] = [
    ['a 307 to the same path with another query', `/a/mcp?status=307&to=${encodeURIComponent('/a/mcp?landed=1&tenant=b')}`],
    ['a 308 to the same path in another case', `/a/mcp?status=308&to=${encodeURIComponent('/A/MCP?landed=1')}`],
    ['a 301 to another path', `/a/mcp?status=301&to=${encodeURIComponent('/b/mcp?landed=1')}`],
    ['a 302, then a chain', `/a/mcp?status=302&to=${encodeURIComponent('/a/mcp?status=307&to=/b/mcp%3Flanded%3D1')}`],
    ['a 303 to the URL as configured', `/a/mcp?status=303&to=${encodeURIComponent('/a/mcp?landed=1')}`],
  ];
  for (const [name, path] of cases) {
    it(`${name}: refused, nothing sent on`, async () => {
      seen.length = 0;
      await expect(guarded(new URL(`${base}${path}`), { method: 'POST', headers: { Authorization: 'Bearer TOKEN-A' }, body: '{}' })).rejects.toThrow(/redirected a request/);
      await expect(guarded(new URL(`${base}${path}`), { method: 'POST', headers: { 'x-api-key': 'KEY-A' }, body: '{}' })).rejects.toThrow(/redirected a request/);
      expect(seen).toEqual([]);
    });
  }

  it('a Request object that carries the token itself (no init) does not follow either', async () => {
    seen.length = 0;
    const request = new Request(`${base}/a/mcp?status=307&to=${encodeURIComponent('/b/mcp?landed=1')}`, { headers: { Authorization: 'Bearer TOKEN-A' } });
    await expect(guarded(request as unknown as URL)).rejects.toThrow(/redirected a request from http:\/\/127\.0\.0\.1:\d+\/a\/mcp to/);
    expect(seen.filter((s) => s.authorization)).toEqual([]);
  });
});
