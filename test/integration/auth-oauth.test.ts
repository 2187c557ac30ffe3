// OAuth 2.1 end to end: a real authorization server + protected MCP server (test/fixtures/auth)
// on 127.0.0.1, a real Host, Harbor's own provider, a headless browser that follows the sign-in
// page to Harbor's real loopback callback listener. Tokens live in a MemorySecretStore.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserOpener } from '../../main/host/auth/opener';
import { HarborError } from '../../main/host/errors';
import type { HostOptions } from '../../main/host/host';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { Redactor } from '../../main/host/secrets/redactor';
import { startAuthFixture, type RunningAuthFixture } from '../fixtures/auth/start';
import { createTestHost, type TestHost } from '../helpers/host';
import { filesUnder, recordingBrowser } from '../helpers/oauth';

let fixture: RunningAuthFixture | undefined;
let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  await fixture?.kill();
  current = undefined;
  fixture = undefined;
});

async function hostFor(server: Record<string, unknown>, secrets = new MemorySecretStore(), options: Partial<HostOptions> = {}) {
  const browser = recordingBrowser();
  const redactor = new Redactor();
  current = await createTestHost({ remote: server }, { secrets, redactor, openBrowser: browser, connectTimeoutMs: 20_000, ...options });
  return { host: current.host, secrets, browser, redactor };
}

async function rejection(work: Promise<unknown>): Promise<HarborError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarborError);
  return error as HarborError;
}

const text = (result: { content?: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text ?? '';

describe('OAuth sign-in to a protected remote server', () => {
  it('shows AUTH_REQUIRED without registering anything, then signs in (DCR, PKCE S256, state, resource) and calls a tool', async () => {
    fixture = await startAuthFixture();
    const { host, secrets, browser, redactor } = await hostFor({ url: fixture.mcp });

    // A background connect never opens a browser and never registers a client on the person's behalf.
    await host.servers.startAll();
    expect(host.servers.get('remote').state).toMatchObject({ kind: 'error', code: 'AUTH_REQUIRED' });
    expect((host.servers.get('remote').state as { message: string }).message).toContain('harbor login remote');
    expect(browser.opened).toHaveLength(0);
    expect((await fixture.stats()).registrations).toBe(0);

    const summary = await host.auth.login('remote');
    expect(summary.state.kind).toBe('ready');
    expect(browser.opened).toHaveLength(1);
    const stats = await fixture.stats();
    expect(stats).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
    expect(stats.lastRegistration).toMatchObject({ application_type: 'native', client_name: 'Harbor' });
    const redirect = new URL((stats.lastRegistration!.redirect_uris as string[])[0]!);
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(redirect.pathname).toBe('/callback');
    expect(Number(redirect.port)).toBeGreaterThan(0);
    expect(stats.lastAuthorize).toMatchObject({ code_challenge_method: 'S256', resource: fixture.mcp, redirect_uri: redirect.href });
    expect(stats.lastAuthorize!.state!.length).toBeGreaterThanOrEqual(32);
    expect(stats.lastToken).toMatchObject({ grant_type: 'authorization_code', resource: fixture.mcp });

    const who = JSON.parse(text(await current!.call('remote', 'whoami'))) as { clientId: string };
    expect(who.clientId).toMatch(/^dcr-/);

    // Tokens and the registration are in the secret store under Harbor's names, and nowhere on disk.
    const names = await secrets.list();
    expect(names.filter((n) => n.startsWith('harbor-oauth.'))).toHaveLength(3); // tokens, client, binding
    const tokenEntry = names.find((n) => n.endsWith('.tokens'))!;
    const accessToken = (JSON.parse((await secrets.get(tokenEntry))!) as { tokens: { access_token: string } }).tokens.access_token;
    for (const file of filesUnder(current!.dir)) expect(readFileSync(file, 'latin1')).not.toContain(accessToken);
    // …and a server echoing it back would be masked.
    expect(redactor.mask(`token=${accessToken}`)).not.toContain(accessToken);
  });

  it('refreshes an expiring token before using it, without a 401 or a new sign-in', async () => {
    fixture = await startAuthFixture(['--access-ttl', '60']);
    // Harbor's clock, moved past the token's lifetime below instead of waiting it out.
    let skew = 0;
    const { host } = await hostFor({ url: fixture.mcp }, undefined, { oauth: { now: () => Date.now() + skew } });
    await host.auth.login('remote');
    const before = await fixture.stats();
    // The token expires on both sides: the server refuses it now (a call with it is a 401), Harbor's clock is past it.
    await fixture.expireAccessTokens();
    skew = 61_000;
    expect(text(await current!.call('remote', 'add', { a: 2, b: 3 }))).toBe('5');
    const after = await fixture.stats();
    expect(after.refreshes).toBeGreaterThanOrEqual(1);
    expect(after.authorizations).toBe(before.authorizations);
    expect(after.mcpUnauthorized).toBe(before.mcpUnauthorized);
  });

  it('revoked at the authorization server: the next call fails AUTH_REQUIRED and the server says so', async () => {
    fixture = await startAuthFixture();
    const { host, secrets, browser } = await hostFor({ url: fixture.mcp });
    await host.auth.login('remote');
    expect(text(await current!.call('remote', 'add', { a: 1, b: 1 }))).toBe('2');
    await fixture.revokeAll();

    const error = await rejection(current!.call('remote', 'add', { a: 1, b: 1 }));
    expect(error.code).toBe('AUTH_REQUIRED');
    expect(error.message).toContain('harbor login remote');
    expect(host.servers.get('remote').state).toMatchObject({ kind: 'error', code: 'AUTH_REQUIRED' });
    const stats = await fixture.stats();
    expect(stats.refreshFailures).toBeGreaterThanOrEqual(1); // Harbor tried the refresh token first
    expect(browser.opened).toHaveLength(1); // and opened no browser on its own
    // The dead tokens are gone from the store; the registration stays for the next sign-in.
    expect((await secrets.list()).some((n) => n.endsWith('.tokens'))).toBe(false);

    // Signing in again works, reusing the registration.
    expect((await host.auth.login('remote')).state.kind).toBe('ready');
    expect((await fixture.stats()).registrations).toBe(1);
  });

  it('logout revokes at the authorization server and removes tokens and client information from the store', async () => {
    fixture = await startAuthFixture();
    const { host, secrets } = await hostFor({ url: fixture.mcp });
    await host.auth.login('remote');
    expect((await secrets.list()).some((n) => n.startsWith('harbor-oauth.'))).toBe(true);

    expect(await host.auth.logout('remote')).toEqual({ removed: true, revoked: true });
    expect((await secrets.list()).filter((n) => n.startsWith('harbor-oauth.'))).toEqual([]);
    expect(await fixture.stats()).toMatchObject({ revocations: 1, liveGrants: 0 });
    expect(host.servers.get('remote').state.kind).toBe('stopped');
    expect(await host.auth.logout('remote')).toEqual({ removed: false, revoked: false });

    await host.servers.startAll();
    expect(host.servers.get('remote').state).toMatchObject({ kind: 'error', code: 'AUTH_REQUIRED' });
  });

  it('uses a pre-registered client whose secret comes from the keychain (no dynamic registration)', async () => {
    fixture = await startAuthFixture(['--no-registration', '--client-id', 'harbor-pre', '--client-secret', 'pre-secret-value-42']);
    const secrets = new MemorySecretStore({ 'remote-client-secret': 'pre-secret-value-42' });
    const { host, redactor } = await hostFor({ url: fixture.mcp, oauth: { clientId: 'harbor-pre', clientSecret: '${secret:remote-client-secret}' } }, secrets);
    await host.auth.login('remote');
    const who = JSON.parse(text(await current!.call('remote', 'whoami'))) as { clientId: string };
    expect(who.clientId).toBe('harbor-pre');
    expect((await fixture.stats()).registrations).toBe(0);
    expect(redactor.mask('pre-secret-value-42')).not.toContain('pre-secret-value-42');
  });

  it('refuses an authorization server that does not advertise PKCE S256, before any browser opens', async () => {
    fixture = await startAuthFixture(['--no-pkce-metadata']);
    const { host, browser } = await hostFor({ url: fixture.mcp });
    const error = await rejection(host.auth.login('remote'));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain('PKCE');
    expect(browser.opened).toHaveLength(0);
    expect((await fixture.stats()).authorizations).toBe(0);
  });

  it('never opens an authorization URL that is not https or loopback http', async () => {
    for (const endpoint of ['file:///etc/passwd', 'http://example.com/authorize', 'ms-settings:display', 'javascript:alert(1)', 'data:text/html,hi', 'vbscript:msgbox(1)']) {
      fixture = await startAuthFixture(['--authorization-endpoint', endpoint]);
      const { host, browser } = await hostFor({ url: fixture.mcp });
      const error = await rejection(host.auth.login('remote'));
      expect(browser.opened, endpoint).toHaveLength(0);
      // javascript:, data: and vbscript: are already refused by the SDK's metadata schema.
      if (!/^(javascript|data|vbscript):/.test(endpoint)) expect(error.code, endpoint).toBe('AUTH_FAILED');
      await current!.dispose();
      await fixture.kill();
      current = undefined;
      fixture = undefined;
    }
  });

  it("checks state itself: a callback carrying another state is refused and the sign-in does not complete", async () => {
    fixture = await startAuthFixture();
    let callbackStatus = 0;
    // A "browser" that lands on Harbor's callback with a forged state.
    const forging: BrowserOpener = async (url) => {
      const response = await fetch(url, { redirect: 'manual' });
      const callback = new URL(response.headers.get('location')!);
      callback.searchParams.set('state', 'forged-state');
      callbackStatus = (await fetch(callback)).status;
    };
    current = await createTestHost({ remote: { url: fixture.mcp } }, { secrets: new MemorySecretStore(), oauth: { callbackTimeoutMs: 1_500 } });
    const error = await rejection(current.host.auth.login('remote', { opener: forging }));
    expect(callbackStatus).toBe(400);
    expect(error.code).toBe('AUTH_REQUIRED');
    expect(error.message).toContain('not completed');
    expect((await fixture.stats()).codeExchanges).toBe(0);
  });

  it('a sign-in the authorization server denies ends AUTH_REQUIRED, quoting no text of its own', async () => {
    fixture = await startAuthFixture(['--authorize', 'deny']);
    const { host } = await hostFor({ url: fixture.mcp });
    const error = await rejection(host.auth.login('remote'));
    expect(error.code).toBe('AUTH_REQUIRED');
    expect(error.message).toContain('access_denied');
    expect((await fixture.stats()).codeExchanges).toBe(0);
  });

  it('stops after 2 sign-ins in one operation when the server keeps refusing', async () => {
    fixture = await startAuthFixture(['--reject-tokens', '--no-refresh-tokens']);
    const { host, browser } = await hostFor({ url: fixture.mcp });
    const error = await rejection(host.auth.login('remote'));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain('2 sign-ins');
    expect(browser.opened).toHaveLength(2);
    expect((await fixture.stats()).authorizations).toBe(2);
  });

  it('sends no OAuth at all to a server configured with its own Authorization header', async () => {
    fixture = await startAuthFixture();
    const { host, browser } = await hostFor({ url: fixture.mcp, headers: { Authorization: 'Bearer static-not-valid' } });
    const error = await rejection(host.auth.login('remote'));
    expect(error.code).toBe('AUTH_REQUIRED');
    expect(browser.opened).toHaveLength(0);
    expect((await fixture.stats()).registrations).toBe(0);
  });
});
