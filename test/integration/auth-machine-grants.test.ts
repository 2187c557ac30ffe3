// Machine and enterprise sign-in end to end: a real authorization server + protected MCP server
// (test/fixtures/auth) on 127.0.0.1, a real Host configured by registry `oauth` entries, keys and
// secrets in the Host's secret store. No browser is involved except for the DPoP sign-in, which
// is a person's authorization-code sign-in with DPoP-bound tokens.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { Redactor } from '../../main/host/secrets/redactor';
import { startAuthFixture, type RunningAuthFixture } from '../fixtures/auth/start';
import { createTestHost, type TestHost } from '../helpers/host';
import { filesUnder, recordingBrowser } from '../helpers/oauth';

let fixture: RunningAuthFixture | undefined;
const hosts: TestHost[] = [];
let scratch: string | undefined;
/** How far the Harbors' sign-in clock runs ahead: moved past a token's lifetime instead of waiting it out. */
let skew = 0;
afterEach(async () => {
  skew = 0;
  for (const host of hosts.splice(0)) await host.dispose();
  await fixture?.kill();
  fixture = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** A folder for key and token files, removed after the test. */
function scratchDir(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'harbor-machine-auth-'));
  return scratch;
}

/** The SPKI PEM of `key` in a file, for the fixture's --*-public-key options. */
function publicKeyFile(key: KeyObject, name: string): string {
  const path = join(scratchDir(), name);
  writeFileSync(path, key.export({ type: 'spki', format: 'pem' }));
  return path;
}

async function hostFor(oauth: Record<string, unknown>, secrets: MemorySecretStore) {
  const browser = recordingBrowser();
  const redactor = new Redactor();
  const current = await createTestHost({ remote: { url: fixture!.mcp, oauth } }, {
    secrets,
    redactor,
    openBrowser: browser,
    connectTimeoutMs: 20_000,
    oauth: { now: () => Date.now() + skew },
  });
  hosts.push(current);
  return { ...current, browser, redactor };
}

const text = (result: { content?: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text ?? '';
const whoami = async (current: TestHost) => JSON.parse(text(await current.call('remote', 'whoami'))) as { clientId: string; kind: string; subject?: string; jkt?: string };

describe('client credentials (machine to machine)', () => {
  it.each([
    ['client_secret_basic', {}],
    ['client_secret_post', { tokenEndpointAuthMethod: 'client_secret_post' }],
  ] as const)('connects with %s: no person, no browser, no registration; the secret never leaves the keychain', async (method, extra) => {
    fixture = await startAuthFixture(['--no-registration', '--client-credentials', '--client-id', 'harbor-ci', '--client-secret', 'ci-secret-value-0451']);
    const secrets = new MemorySecretStore({ 'ci-secret': 'ci-secret-value-0451' });
    const current = await hostFor({ grant: 'client_credentials', clientId: 'harbor-ci', clientSecret: '${secret:ci-secret}', ...extra }, secrets);

    // A background connect gets the token itself.
    await current.host.servers.startAll();
    expect(current.host.servers.get('remote').state.kind).toBe('ready');
    expect(await whoami(current)).toMatchObject({ clientId: 'harbor-ci', kind: 'client_credentials' });
    const stats = await fixture.stats();
    expect(stats).toMatchObject({ clientCredentialsGrants: 1, registrations: 0, authorizations: 0, tokenRefusals: 0 });
    expect(stats.lastToken).toMatchObject({ grant_type: 'client_credentials', client_auth: method, resource: fixture.mcp, token_type: 'Bearer' });
    expect(current.browser.opened).toHaveLength(0);

    // The token is kept in the keychain like a person's; neither it nor the secret is in any file.
    const tokenEntry = (await secrets.list()).find((n) => n.startsWith('harbor-oauth.') && n.endsWith('.tokens'))!;
    const accessToken = (JSON.parse((await secrets.get(tokenEntry))!) as { tokens: { access_token: string } }).tokens.access_token;
    for (const file of filesUnder(current.dir)) {
      const content = readFileSync(file, 'latin1');
      expect(content).not.toContain(accessToken);
      expect(content).not.toContain('ci-secret-value-0451');
    }
    expect(current.redactor.mask('ci-secret-value-0451')).not.toContain('ci-secret-value-0451');
  });

  it('connects with private_key_jwt: a signed assertion with the key from the keychain (algorithm from the key)', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    fixture = await startAuthFixture(['--no-registration', '--client-credentials', '--client-id', 'harbor-ci', '--client-public-key', publicKeyFile(publicKey, 'client.pem')]);
    const secrets = new MemorySecretStore({ 'ci-key': privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    const current = await hostFor({ grant: 'client_credentials', clientId: 'harbor-ci', privateKey: '${secret:ci-key}' }, secrets);
    await current.host.servers.startAll();
    expect(await whoami(current)).toMatchObject({ clientId: 'harbor-ci', kind: 'client_credentials' });
    expect((await fixture.stats()).lastToken).toMatchObject({ grant_type: 'client_credentials', client_auth: 'private_key_jwt' });
  });

  it('a refused secret is AUTH_FAILED with the OAuth code and what to check, after exactly one token request', async () => {
    fixture = await startAuthFixture(['--no-registration', '--client-credentials', '--client-id', 'harbor-ci', '--client-secret', 'the-right-one']);
    const current = await hostFor({ grant: 'client_credentials', clientId: 'harbor-ci', clientSecret: '${secret:ci-secret}' }, new MemorySecretStore({ 'ci-secret': 'a-wrong-one' }));
    await current.host.servers.startAll();
    const state = current.host.servers.get('remote').state as { kind: string; code: string; message: string };
    expect(state).toMatchObject({ kind: 'error', code: 'AUTH_FAILED' });
    expect(state.message).toContain(`refused Harbor's client credentials (invalid_client)`);
    expect(state.message).toContain('"oauth.clientId"');
    expect(state.message).not.toContain('harbor login');
    expect(state.message).not.toContain('client authentication failed'); // the server's own words are never quoted
    expect(await fixture.stats()).toMatchObject({ tokenRefusals: 1, clientCredentialsGrants: 0 });
  });

  it('a missing keychain secret says which one and how to set it', async () => {
    fixture = await startAuthFixture(['--no-registration', '--client-credentials', '--client-id', 'harbor-ci', '--client-secret', 'x']);
    const current = await hostFor({ grant: 'client_credentials', clientId: 'harbor-ci', clientSecret: '${secret:ci-secret}' }, new MemorySecretStore());
    await current.host.servers.startAll();
    const state = current.host.servers.get('remote').state as { kind: string; code: string; message: string };
    expect(state).toMatchObject({ kind: 'error', code: 'SECRET_MISSING' });
    expect(state.message).toContain('harbor secret set ci-secret');
  });
});

describe('workload identity federation (JWT bearer)', () => {
  async function workloadJwt(key: KeyObject, audience: string, subject: string, expiresIn = '5m'): Promise<string> {
    return new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer('https://workload-issuer.test').setSubject(subject).setAudience(audience).setIssuedAt().setExpirationTime(expiresIn).sign(key);
  }

  it('presents the platform token from its file (read fresh for each token request) as the grant', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    fixture = await startAuthFixture(['--no-registration', '--client-id', 'harbor-workload', '--workload-public-key', publicKeyFile(publicKey, 'workload.pem')]);
    const tokenFile = join(scratchDir(), 'token');
    writeFileSync(tokenFile, `${await workloadJwt(privateKey, fixture.origin, 'build-agent-1')}\n`);
    const current = await hostFor({ grant: 'workload_identity', clientId: 'harbor-workload', workloadIdentity: { tokenFile } }, new MemorySecretStore());
    await current.host.servers.startAll();
    expect(await whoami(current)).toMatchObject({ clientId: 'harbor-workload', kind: 'workload', subject: 'build-agent-1' });
    expect((await fixture.stats()).lastToken).toMatchObject({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', client_auth: 'none', resource: fixture.mcp });

    // The platform rotates the token; after a logout the next connect presents the new one.
    writeFileSync(tokenFile, await workloadJwt(privateKey, fixture.origin, 'build-agent-2'));
    await current.host.auth.logout('remote');
    await current.host.servers.startAll();
    expect(await whoami(current)).toMatchObject({ kind: 'workload', subject: 'build-agent-2' });
    expect((await fixture.stats()).jwtBearerGrants).toBe(2);
  });

  it('an expired workload token is refused once, not retried, and the message says what to check', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    fixture = await startAuthFixture(['--no-registration', '--client-id', 'harbor-workload', '--workload-public-key', publicKeyFile(publicKey, 'workload.pem')]);
    const secrets = new MemorySecretStore({ 'workload-token': await workloadJwt(privateKey, fixture.origin, 'build-agent-1', '-1m') });
    const current = await hostFor({ grant: 'workload_identity', clientId: 'harbor-workload', workloadIdentity: { token: '${secret:workload-token}' } }, secrets);
    await current.host.servers.startAll();
    const state = current.host.servers.get('remote').state as { kind: string; code: string; message: string };
    expect(state).toMatchObject({ kind: 'error', code: 'AUTH_FAILED' });
    expect(state.message).toContain(`refused Harbor's workload identity token (invalid_grant)`);
    expect(await fixture.stats()).toMatchObject({ tokenRefusals: 1, jwtBearerGrants: 0 });
  });
});

describe('enterprise-managed authorization (ID-JAG)', () => {
  const enterprise = (origin: string) => ({
    grant: 'enterprise',
    clientId: 'harbor-mcp',
    clientSecret: '${secret:mcp-client-secret}',
    enterprise: { idpTokenEndpoint: `${origin}/idp/token`, idpClientId: 'harbor-at-idp', idToken: '${secret:corp-id-token}' },
  });

  it("exchanges the person's ID token at the identity provider for an ID-JAG, and the ID-JAG for a token", async () => {
    fixture = await startAuthFixture(['--no-registration', '--idp', '--client-id', 'harbor-mcp', '--client-secret', 'mcp-secret-7']);
    const idToken = await fixture.idToken('alice@example.com');
    const secrets = new MemorySecretStore({ 'mcp-client-secret': 'mcp-secret-7', 'corp-id-token': idToken });
    const current = await hostFor(enterprise(fixture.origin), secrets);
    await current.host.servers.startAll();
    expect(await whoami(current)).toMatchObject({ clientId: 'harbor-mcp', kind: 'id-jag', subject: 'alice@example.com' });
    const stats = await fixture.stats();
    expect(stats.idp).toMatchObject({ tokenExchanges: 1, lastExchange: { audience: fixture.origin, resource: fixture.mcp } });
    expect(stats.lastToken).toMatchObject({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', client_auth: 'client_secret_basic', resource: fixture.mcp });
    expect(current.browser.opened).toHaveLength(0);
    expect(current.redactor.mask(idToken)).not.toContain(idToken);
  });

  it('an expired ID token: the identity provider refuses, and Harbor says to store a fresh one', async () => {
    fixture = await startAuthFixture(['--no-registration', '--idp', '--client-id', 'harbor-mcp', '--client-secret', 'mcp-secret-7']);
    const secrets = new MemorySecretStore({ 'mcp-client-secret': 'mcp-secret-7', 'corp-id-token': await fixture.idToken('alice@example.com', { expired: true }) });
    const current = await hostFor(enterprise(fixture.origin), secrets);
    await current.host.servers.startAll();
    const state = current.host.servers.get('remote').state as { kind: string; code: string; message: string };
    expect(state).toMatchObject({ kind: 'error', code: 'AUTH_FAILED' });
    expect(state.message).toContain('identity provider');
    expect(state.message).toContain('(invalid_grant)');
    expect(state.message).toContain('harbor secret set corp-id-token');
    expect(state.message).not.toContain('refused: invalid_grant'); // the provider's own description is not quoted
    expect((await fixture.stats()).jwtBearerGrants).toBe(0);
  });
});

describe('DPoP (sender-constrained tokens)', () => {
  it('signs in with DPoP-bound tokens, answers the nonce challenges of both servers, refreshes with a proof, and keeps the key across Harbor processes', async () => {
    fixture = await startAuthFixture(['--dpop-nonce', '--access-ttl', '60']);
    const secrets = new MemorySecretStore();
    const first = await hostFor({ dpop: true }, secrets);
    expect((await first.host.auth.login('remote')).state.kind).toBe('ready');
    expect(text(await first.call('remote', 'add', { a: 2, b: 3 }))).toBe('5');
    let stats = await fixture.stats();
    expect(stats.lastToken).toMatchObject({ grant_type: 'authorization_code', dpop: true, token_type: 'DPoP' });
    expect(stats.dpop!.asNonceChallenges).toBeGreaterThanOrEqual(1);
    expect(stats.dpop!.rsNonceChallenges).toBeGreaterThanOrEqual(1);
    expect(stats.dpop!.lastProofError).toBeNull();
    const keyEntries = (await secrets.list()).filter((n) => n.startsWith('harbor-oauth.') && n.endsWith('.dpop'));
    expect(keyEntries).toHaveLength(1);
    const { jkt } = await whoami(first);

    // The access token expires: Harbor's own refresh carries a proof with the same key.
    await fixture.expireAccessTokens();
    skew = 61_000;
    expect(text(await first.call('remote', 'add', { a: 1, b: 1 }))).toBe('2');
    stats = await fixture.stats();
    expect(stats.refreshes).toBeGreaterThanOrEqual(1);
    expect(stats.authorizations).toBe(1);
    // The keychain outlives the process (a disposed MemorySecretStore forgets, so keep a copy).
    const keychain = new MemorySecretStore(Object.fromEntries(await Promise.all((await secrets.list()).map(async (n) => [n, (await secrets.get(n))!]))));
    await first.dispose();
    hosts.splice(hosts.indexOf(first), 1);

    // Another Harbor process with the same keychain: same key, so the bound tokens still work.
    const second = await hostFor({ dpop: true }, keychain);
    await second.host.servers.startAll();
    expect(second.host.servers.get('remote').state.kind).toBe('ready');
    expect((await whoami(second)).jkt).toBe(jkt);
    expect((await fixture.stats()).authorizations).toBe(1);
    expect(second.browser.opened).toHaveLength(0);

    // Logout forgets the key with the tokens.
    await second.host.auth.logout('remote');
    expect((await keychain.list()).filter((n) => n.startsWith('harbor-oauth.'))).toEqual([]);
  });

  it('binds machine tokens too: client credentials with "dpop": true', async () => {
    fixture = await startAuthFixture(['--dpop', '--no-registration', '--client-credentials', '--client-id', 'harbor-ci', '--client-secret', 'ci-secret']);
    const current = await hostFor({ grant: 'client_credentials', clientId: 'harbor-ci', clientSecret: '${secret:ci-secret}', dpop: true }, new MemorySecretStore({ 'ci-secret': 'ci-secret' }));
    await current.host.servers.startAll();
    expect(await whoami(current)).toMatchObject({ kind: 'client_credentials', jkt: expect.any(String) });
    const stats = await fixture.stats();
    expect(stats.lastToken).toMatchObject({ grant_type: 'client_credentials', dpop: true, token_type: 'DPoP' });
    expect(stats.dpop!.resourceProofs).toBeGreaterThanOrEqual(2);
  });
});
