// The fetch every OAuth transport uses, against a real HTTP server on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFetch } from '../../main/host/auth/fetch';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 200);
    res.writeHead(status, status === 401 ? { 'www-authenticate': 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"' } : {}).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

function watched() {
  const calls = { beforeAuthorization: 0, tokenRejected: 0 };
  const f = authFetch((input, init) => fetch(input, init), {
    beforeAuthorization: async () => {
      calls.beforeAuthorization++;
    },
    tokenRejected: async () => {
      calls.tokenRejected++;
    },
  });
  return { f, calls };
}

describe('authFetch', () => {
  it('drops cached discovery when a request that carried a bearer token gets 401 again', async () => {
    const { f, calls } = watched();
    const response = await f(`${base}?status=401`, { headers: { Authorization: 'Bearer stale-token' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata'); // passed through untouched for the SDK
    expect(calls).toEqual({ beforeAuthorization: 1, tokenRejected: 1 });
  });

  it('does not on a first 401 without a token, nor on a token endpoint refusing Basic credentials', async () => {
    const { f, calls } = watched();
    await f(`${base}?status=401`);
    await f(`${base}?status=401`, { headers: new Headers({ authorization: 'Basic Y2xpZW50OnNlY3JldA==' }) });
    expect(calls).toEqual({ beforeAuthorization: 2, tokenRejected: 0 });
  });

  it('prepares the redirect target on 403 (step-up) and does nothing on success', async () => {
    const { f, calls } = watched();
    await f(`${base}?status=403`, { headers: { Authorization: 'Bearer t' } });
    await f(`${base}?status=200`, { headers: { Authorization: 'Bearer t' } });
    expect(calls).toEqual({ beforeAuthorization: 1, tokenRejected: 0 });
  });
});
