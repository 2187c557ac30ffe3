/**
 * `harbor login` / `harbor logout` as a person runs them: the built CLI (out/main/cli.js) in its
 * own process, the local authorization server fixture, the sign-in URL read from stderr and
 * followed by a headless browser, tokens in the REAL OS keychain (a unique service name, emptied
 * afterwards). Like secrets-keychain.test.ts: required in CI, skipped locally without a session
 * bus, with the reason.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { headlessBrowser } from '../../main/host/auth/opener';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';
import { startAuthFixture, type RunningAuthFixture } from '../fixtures/auth/start';
import { runCli, tempRegistry } from '../helpers/cli';
import { requireKeychainInCi } from '../helpers/keychain';

const SERVICE = `harbor-test-auth-${process.pid}-${randomBytes(4).toString('hex')}`;


const problem = await requireKeychainInCi();

let fixture: RunningAuthFixture | undefined;
let registry: ReturnType<typeof tempRegistry> | undefined;
afterEach(async () => {
  await fixture?.kill();
  registry?.remove();
  fixture = undefined;
  registry = undefined;
});

describe.skipIf(problem !== undefined)(`harbor login / logout with the OS keychain${problem ? ` — skipped: ${problem}` : ''}`, () => {
  const store = new KeychainSecretStore({ service: SERVICE });
  const previous = process.env.HARBOR_KEYCHAIN_SERVICE;
  process.env.HARBOR_KEYCHAIN_SERVICE = SERVICE; // inherited by the CLI processes

  afterAll(async () => {
    for (const name of await store.list().catch(() => [])) await store.delete(name).catch(() => false);
    await store.dispose();
    if (previous === undefined) delete process.env.HARBOR_KEYCHAIN_SERVICE;
    else process.env.HARBOR_KEYCHAIN_SERVICE = previous;
  });

  it('prints the sign-in URL, waits for the browser, keeps the tokens in the keychain; logout forgets them', async () => {
    fixture = await startAuthFixture();
    registry = tempRegistry({ remote: { url: fixture.mcp } });
    const where = ['--config', registry.config, '--data-dir', registry.dir];

    // Before: the server needs a sign-in, and a call says how to do it (exit 3).
    const before = await runCli(['call', 'remote', 'whoami', '--yes', ...where]);
    expect(before.code).toBe(3);
    expect(before.stderr).toContain('harbor login remote');

    let browser: Promise<void> | undefined;
    const login = await runCli(['login', 'remote', ...where], {
      timeoutMs: 60_000,
      onStderrLine: (line) => {
        const url = /^\s+(https?:\/\/\S+)$/.exec(line)?.[1];
        if (url && !browser) browser = headlessBrowser()(new URL(url));
      },
    });
    await browser;
    expect(login.stderr).toContain('Sign in to "remote" in your browser');
    expect(login.stderr).toMatch(/\/authorize\?.*code_challenge_method=S256/);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('Signed in to "remote"');
    expect((await fixture.stats()).codeExchanges).toBe(1);

    // The tokens are in the keychain, not in any output.
    const names = await store.list();
    expect(names.some((n) => n.startsWith('harbor-oauth.') && n.endsWith('.tokens'))).toBe(true);
    const tokens = JSON.parse((await store.get(names.find((n) => n.endsWith('.tokens'))!))!) as { tokens: { access_token: string } };
    expect(login.stdout + login.stderr).not.toContain(tokens.tokens.access_token);

    // Another process uses them without signing in again.
    const call = await runCli(['call', 'remote', 'whoami', '--yes', ...where]);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('dcr-');
    expect((await fixture.stats()).authorizations).toBe(1);

    const logout = await runCli(['logout', 'remote', ...where]);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toContain('Signed out of "remote"');
    expect((await store.list()).filter((n) => n.startsWith('harbor-oauth.'))).toEqual([]);
    expect((await fixture.stats()).revocations).toBe(1);

    const after = await runCli(['call', 'remote', 'whoami', '--yes', ...where]);
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('harbor login remote');
  });
});
