/**
 * `harbor login` / `harbor logout` as a person runs them: the built CLI (out/main/cli.js) in its
 * own process, the local authorization server fixture, the sign-in URL read from stderr and
 * followed by a headless browser, tokens in the REAL OS keychain (a unique service name, emptied
 * afterwards). Like secrets-keychain.test.ts: required in CI, skipped locally without a session
 * bus, with the reason.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    fixture = await startAuthFixture(['--subject', 'alice@example.com']);
    registry = tempRegistry({ remote: { url: fixture.mcp } });
    const where = ['--config', registry.config, '--data-dir', registry.dir];

    // Before: the server needs a sign-in, and a call says how to do it (exit 3).
    const before = await runCli(['call', 'remote', 'whoami', '--yes', ...where]);
    expect(before.code).toBe(3);
    expect(before.stderr).toContain('harbor login remote');
    const listedBefore = await runCli(['servers', '--json', ...where]);
    expect(JSON.parse(listedBefore.stdout.trim())).toMatchObject({ name: 'remote', state: 'error', signIn: { state: 'none' } });

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

    // `harbor servers` says whom Harbor is signed in as, and until when (#28 §2).
    const listed = await runCli(['servers', '--json', ...where]);
    expect(listed.code, listed.stderr).toBe(0);
    const line = JSON.parse(listed.stdout.trim()) as { signIn: { state: string; subject: string; expiresAt: number } };
    expect(line.signIn).toMatchObject({ state: 'signed-in', subject: 'alice@example.com' });
    expect(line.signIn.expiresAt).toBeGreaterThan(Date.now() + 3_000_000);
    const text = await runCli(['servers', ...where]);
    expect(text.stdout).toMatch(/\n\s+signed in as alice@example\.com until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);

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
    const listedAfter = await runCli(['servers', '--json', ...where]);
    expect(JSON.parse(listedAfter.stdout.trim())).toMatchObject({ name: 'remote', signIn: { state: 'none' } });
  });

  it('machine sign-in needs no login: a private key set with "harbor secret set", DPoP-bound tokens and the DPoP key in the keychain', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    registry = tempRegistry({
      remote: { url: 'http://127.0.0.1:1/mcp', oauth: { grant: 'client_credentials', clientId: 'harbor-ci', tokenEndpointAuthMethod: 'private_key_jwt', privateKey: '${secret:ci-key}', dpop: true } },
    });
    const publicKeyPath = join(registry.dir, 'client.pem');
    writeFileSync(publicKeyPath, publicKey.export({ type: 'spki', format: 'pem' }));
    fixture = await startAuthFixture(['--no-registration', '--dpop', '--client-credentials', '--client-id', 'harbor-ci', '--client-public-key', publicKeyPath]);
    const config = JSON.parse(readFileSync(registry.config, 'utf8')) as { mcpServers: { remote: { url: string } } };
    config.mcpServers.remote.url = fixture.mcp;
    writeFileSync(registry.config, JSON.stringify(config));
    const where = ['--config', registry.config, '--data-dir', registry.dir];

    const set = await runCli(['secret', 'set', 'ci-key', ...where], { input: pem });
    expect(set.code, set.stderr).toBe(0);
    // A fresh data folder gives the registry's servers no secrets (#27.16): the person grants it.
    const granted = await runCli(['secret', 'grant', 'ci-key', 'remote', ...where]);
    expect(granted.code, granted.stderr).toBe(0);
    const first = await runCli(['call', 'remote', 'whoami', '--yes', ...where]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('client_credentials');
    const names = await store.list();
    expect(names.filter((n) => n.startsWith('harbor-oauth.') && (n.endsWith('.tokens') || n.endsWith('.dpop')))).toHaveLength(2);
    const jkt = (JSON.parse(first.stdout.match(/\{.*"jkt".*\}/)![0]) as { jkt: string }).jkt;

    // The next process reuses the token and the key it is bound to.
    const second = await runCli(['call', 'remote', 'whoami', '--yes', ...where]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(jkt);
    expect(await fixture.stats()).toMatchObject({ clientCredentialsGrants: 1, lastToken: { client_auth: 'private_key_jwt', token_type: 'DPoP' } });
    for (const output of [set, first, second]) expect(output.stdout + output.stderr).not.toContain('PRIVATE KEY');

    const logout = await runCli(['logout', 'remote', ...where]);
    expect(logout.code, logout.stderr).toBe(0);
    expect((await store.list()).filter((n) => n.startsWith('harbor-oauth.'))).toEqual([]);
    expect(await store.list()).toContain('ci-key'); // the person's own secret stays
  });

  it('a bad "oauth" entry is a registry problem with its JSON path', async () => {
    registry = tempRegistry({ remote: { url: 'https://mcp.example/mcp', oauth: { grant: 'client_credentials', clientId: 'harbor-ci', tokenEndpointAuthMethod: 'private_key_jwt' } } });
    const info = await runCli(['info', '--config', registry.config, '--data-dir', registry.dir]);
    expect(info.stdout + info.stderr).toContain('mcpServers.remote.oauth.privateKey: is required for "tokenEndpointAuthMethod": "private_key_jwt"');
  });
});
