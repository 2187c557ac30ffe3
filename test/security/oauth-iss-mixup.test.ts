/**
 * Held attack (RFC 9207, the mix-up attack): the authorization response comes back to Harbor's
 * callback from another authorization server than the one the sign-in started at — its `iss`
 * names the attacker, or is missing although the server advertises that it sends it. Harbor
 * refuses the response: no code is exchanged anywhere, no token is stored, and the message
 * quotes nothing the attacker wrote. A real authorization server and protected MCP server
 * (test/fixtures/auth) on 127.0.0.1, a real Host, a "browser" that rewrites the callback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserOpener } from '../../main/host/auth/opener';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { startAuthFixture, type RunningAuthFixture } from '../fixtures/auth/start';
import { errorOf } from '../helpers/harbor-error';
import { createTestHost, type TestHost } from '../helpers/host';

let fixture: RunningAuthFixture | undefined;
let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  await fixture?.kill();
  current = undefined;
  fixture = undefined;
});

/** A browser that follows the sign-in page, then lands on Harbor's callback with `iss` changed by `forge`. */
function mixingUp(forge: (callback: URL) => void, seen: { status: number; iss: string | null }): BrowserOpener {
  return async (url) => {
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    const callback = new URL(response.headers.get('location')!);
    seen.iss = callback.searchParams.get('iss');
    forge(callback);
    const landed = await fetch(callback);
    await landed.body?.cancel();
    seen.status = landed.status;
  };
}

describe('RFC 9207: the authorization response must come from the authorization server the sign-in started at', () => {
  it.each([
    ['names another authorization server', (callback: URL) => callback.searchParams.set('iss', 'https://attacker.example')],
    ['leaves out iss although the server advertises it', (callback: URL) => callback.searchParams.delete('iss')],
  ])('a callback whose iss %s is refused: no code exchanged, no token stored', async (_what, forge) => {
    fixture = await startAuthFixture();
    const secrets = new MemorySecretStore();
    current = await createTestHost({ remote: { url: fixture.mcp } }, { secrets, oauth: { callbackTimeoutMs: 5_000 } });
    const seen = { status: 0, iss: null as string | null };
    const error = await errorOf(current.host.auth.login('remote', { opener: mixingUp(forge, seen) }));

    // The honest server did send its iss: the forged callback differs from it only there.
    expect(seen.iss).toBe(new URL(fixture.mcp).origin);
    expect(error.code).toMatch(/^AUTH_(REQUIRED|FAILED)$/);
    expect(error.message).not.toContain('attacker.example');
    expect((await fixture.stats()).codeExchanges).toBe(0);
    expect((await secrets.list()).filter((name) => name.endsWith('.tokens'))).toEqual([]);
  });

  it('the honest callback (its own iss) signs in: the refusals above are about iss alone', async () => {
    fixture = await startAuthFixture();
    current = await createTestHost({ remote: { url: fixture.mcp } }, { secrets: new MemorySecretStore(), oauth: { callbackTimeoutMs: 5_000 } });
    const seen = { status: 0, iss: null as string | null };
    const summary = await current.host.auth.login('remote', { opener: mixingUp(() => undefined, seen) });
    expect(summary.state.kind).toBe('ready');
    expect(seen.status).toBe(200);
    expect((await fixture.stats()).codeExchanges).toBe(1);
  });
});
