// The loopback redirect target, over real sockets on 127.0.0.1.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackCallbackServer } from '../../main/host/auth/callback-server';
import { HarborError } from '../../main/host/errors';

let server: LoopbackCallbackServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

async function started(): Promise<LoopbackCallbackServer> {
  server = new LoopbackCallbackServer();
  await server.start();
  return server;
}

const timeoutError = () => new HarborError('AUTH_REQUIRED', 'timed out');

/** A raw GET with a chosen Host header (fetch would not let us lie about it). */
function get(url: string, host?: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('LoopbackCallbackServer', () => {
  it('listens on 127.0.0.1 with an ephemeral port at /callback', async () => {
    const s = await started();
    const url = new URL(s.redirectUrl);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe('/callback');
    expect(Number(url.port)).toBeGreaterThan(1024);
  });

  it('hands the query of a callback with an expected state to its waiter, once', async () => {
    const s = await started();
    const waiting = s.expect('state-abc', { timeoutMs: 5_000, onTimeout: timeoutError });
    const res = await get(`${s.redirectUrl}?code=the-code&state=state-abc&iss=https%3A%2F%2Fas.example`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const params = await waiting;
    expect(params.get('code')).toBe('the-code');
    expect(params.get('iss')).toBe('https://as.example');
    // The same link again: nobody waits for it any more.
    expect((await get(`${s.redirectUrl}?code=the-code&state=state-abc`)).status).toBe(400);
  });

  it('answers 400 to an unknown state and leaves the real wait untouched', async () => {
    const s = await started();
    const waiting = s.expect('real-state', { timeoutMs: 5_000, onTimeout: timeoutError });
    const forged = await get(`${s.redirectUrl}?code=evil&state=forged`);
    expect(forged.status).toBe(400);
    expect(forged.body).not.toContain('evil');
    expect(s.pendingCount).toBe(1);
    await get(`${s.redirectUrl}?code=good&state=real-state`);
    expect((await waiting).get('code')).toBe('good');
  });

  it('serves nothing but GET /callback addressed to 127.0.0.1:<port> (DNS rebinding)', async () => {
    const s = await started();
    s.expect('st', { timeoutMs: 5_000, onTimeout: timeoutError }).catch(() => undefined);
    const port = new URL(s.redirectUrl).port;
    expect((await get(`http://127.0.0.1:${port}/other?state=st`)).status).toBe(404);
    expect((await get(`${s.redirectUrl}?state=st&code=x`, `evil.example:${port}`)).status).toBe(404);
    expect(s.pendingCount).toBe(1);
  });

  it('shows no authorization-server text on an error callback', async () => {
    const s = await started();
    const waiting = s.expect('st2', { timeoutMs: 5_000, onTimeout: timeoutError });
    const res = await get(`${s.redirectUrl}?state=st2&error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
    expect(res.body).not.toContain('script');
    expect(res.body).not.toContain('access_denied');
    expect((await waiting).get('error')).toBe('access_denied');
  });

  it('rejects a wait on timeout with the given error, and on dispose', async () => {
    const s = await started();
    await expect(s.expect('late', { timeoutMs: 50, onTimeout: timeoutError })).rejects.toThrow('timed out');
    const pending = s.expect('forever', { timeoutMs: 60_000, onTimeout: timeoutError });
    await s.dispose();
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('tries a preferred port first and falls back to any free one when it is taken', async () => {
    const first = await started();
    const taken = Number(new URL(first.redirectUrl).port);
    const second = new LoopbackCallbackServer();
    try {
      await second.start(taken);
      expect(Number(new URL(second.redirectUrl).port)).not.toBe(taken);
    } finally {
      await second.dispose();
    }
  });
});
