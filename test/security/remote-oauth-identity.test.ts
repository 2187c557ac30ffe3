/**
 * Attack (#27.8): a remote server's identity was its URL alone. Whoever can edit the registry
 * (an import, a hand edit, another program) replaces the server's `oauth` block — another
 * authorization server, another client, broader scopes — under the same URL, and Harbor keeps
 * the launch approval, sends the keychain secrets bound to the server (its client secret) to the
 * new authorization server, and keeps using the sign-in made under the old block. A remote
 * server's identity covers what it signs in with: a changed block asks again, its secrets need a
 * new grant, and the saved sign-in belongs to the block it was made under.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchKey, serverIdentity } from '../../main/host/consent/identity';
import { type Host } from '../../main/host/host';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { startAuthFixture, type RunningAuthFixture } from '../fixtures/auth/start';
import { errorOf } from '../helpers/harbor-error';
import { createTestHost, openHostOn, type TestHost } from '../helpers/host';
import { startHttpFeatureServer, type RunningHttpServer } from '../helpers/http-server';
import { recordingBrowser } from '../helpers/oauth';

const honest = { clientId: 'harbor-a', issuer: 'https://as.example.com', clientSecret: '${secret:client-secret}' };
const replaced = { clientId: 'harbor-a', issuer: 'https://as.attacker.example', clientSecret: '${secret:client-secret}' };

describe('the identity of a remote server covers its oauth block', () => {
  it.each([
    ['another authorization server', replaced],
    ['another client', { ...honest, clientId: 'someone-else' }],
    ['broader scopes', { ...honest, scope: 'admin' }],
    ['no oauth block at all', undefined],
  ])('%s under the same URL is another server', (_what, oauth) => {
    const before = { url: 'https://mcp.example.com/mcp', oauth: honest };
    const after = { url: 'https://mcp.example.com/mcp', ...(oauth ? { oauth } : {}) };
    expect(serverIdentity(after)).not.toBe(serverIdentity(before));
    expect(launchKey(after)).not.toBe(launchKey(before));
  });

  it('a server without an oauth block keeps the identity it always had (no re-approval on upgrade)', () => {
    // The same digest consent.db rows of earlier versions were written under.
    expect(serverIdentity({ url: 'https://mcp.example.com/mcp' })).toBe('http:6a4aa8d0ba1855e44cdd36ae30e111f8');
  });
});

let remote: RunningHttpServer;
beforeAll(async () => {
  remote = await startHttpFeatureServer();
});
afterAll(async () => {
  await remote.kill();
});

let dir: string | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('a replaced oauth block under the same URL', () => {
  it('asks again before the first request, and the client secret is not sent until granted to the new block', async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-oauth-identity-'));
    writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: { remote: { url: remote.url, oauth: honest } } }));
    host = await openHostOn(dir, { secrets: new MemorySecretStore({ 'client-secret': 'client-secret-value-7781' }) });
    // The person approved this server, and gave it its client secret.
    host.servers.approveLaunch('remote');
    host.secrets.grant('client-secret', 'remote');
    expect((await host.servers.connect('remote')).state.kind).toBe('ready');

    // Another program replaces the oauth block in the registry file; the URL stays.
    writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: { remote: { url: remote.url, oauth: replaced } } }));
    await host.registry.reload();
    const launch = await errorOf(host.servers.connect('remote'));
    expect(launch.code).toBe('CONSENT_REQUIRED');
    expect(launch.message).toContain('grant-launch remote');

    // Approving the launch again does not hand the old grant of the secret to the new block.
    host.servers.approveLaunch('remote');
    const secret = await errorOf(host.servers.connect('remote'));
    expect(secret.code).toBe('CONSENT_REQUIRED');
    expect(secret.message).toContain('harbor secret grant client-secret remote');
  });
});

describe('the saved sign-in belongs to the oauth block it was made under', () => {
  let fixture: RunningAuthFixture | undefined;
  let current: TestHost | undefined;
  afterEach(async () => {
    await current?.dispose();
    await fixture?.kill();
    current = undefined;
    fixture = undefined;
  });

  it('after the block changes, Harbor holds no sign-in for the server; restoring the block finds it again', async () => {
    fixture = await startAuthFixture(['--no-registration', '--client-id', 'harbor-pre', '--client-secret', 'pre-secret-value-42']);
    const secrets = new MemorySecretStore({ 'pre-secret': 'pre-secret-value-42' });
    const signedInWith = { clientId: 'harbor-pre', clientSecret: '${secret:pre-secret}' };
    current = await createTestHost({ remote: { url: fixture.mcp, oauth: signedInWith } }, { secrets, openBrowser: recordingBrowser(), connectTimeoutMs: 20_000 });
    const { host: signedIn } = current;
    expect((await signedIn.auth.login('remote')).state.kind).toBe('ready');
    expect(await signedIn.auth.status('remote')).toEqual({ usesSignIn: true, signedIn: true });

    await signedIn.registry.update('remote', { url: fixture.mcp, oauth: { ...signedInWith, clientId: 'someone-else' } });
    expect(await signedIn.auth.status('remote')).toEqual({ usesSignIn: true, signedIn: false });

    await signedIn.registry.update('remote', { url: fixture.mcp, oauth: signedInWith });
    expect(await signedIn.auth.status('remote')).toEqual({ usesSignIn: true, signedIn: true });
  });
});
