import { IssuerMismatchError, OAuthError, RegistrationRejectedError, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackCallbackServer } from '../../main/host/auth/callback-server';
import { parseOAuthConfig } from '../../main/host/auth/config';
import { ServerAuth } from '../../main/host/auth/server-auth';
import { OAuthCredentialStore, credentialKey } from '../../main/host/auth/credential-store';
import { toAuthError } from '../../main/host/auth/auth-failures';
import { HarborError } from '../../main/host/errors';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { Redactor } from '../../main/host/secrets/redactor';
import { isValidSecretName } from '../../main/host/secrets/store';

// Each test's callback listener (never started) is disposed at the test's end.
const listeners: LoopbackCallbackServer[] = [];
afterEach(() => Promise.all(listeners.splice(0).map((l) => l.dispose())));

/** The sign-in state of a server named "remote" at `url`, as the AuthService would build it. */
function remoteServerAuth(url: string, store: OAuthCredentialStore): ServerAuth {
  const callbacks = new LoopbackCallbackServer();
  listeners.push(callbacks);
  return new ServerAuth({
    server: 'remote',
    url,
    oauth: '',
    store,
    callbacks,
    clientMetadataUrl: undefined,
    clientName: 'Harbor',
    clientVersion: '0',
    resolveSecret: async (_where, value) => value,
    remember: () => undefined,
    callbackTimeoutMs: 1_000,
    fetch: (input, init) => fetch(input, init),
    now: Date.now,
  });
}

describe('OAuth credentials in the secret store', () => {
  it('keys credentials by issuer + resource, tolerating one trailing slash on the issuer', () => {
    const key = credentialKey('https://as.example', 'https://mcp.example/mcp');
    expect(credentialKey('https://as.example/', 'https://mcp.example/mcp')).toBe(key);
    expect(credentialKey('https://other.example', 'https://mcp.example/mcp')).not.toBe(key);
    expect(credentialKey('https://as.example', 'https://mcp.example/other')).not.toBe(key);
  });

  it('stores tokens, client and binding under valid secret names, and teaches the redactor the tokens', async () => {
    const secrets = new MemorySecretStore();
    const redactor = new Redactor();
    const store = new OAuthCredentialStore(secrets, redactor);
    const key = credentialKey('https://as.example', 'https://mcp.example/mcp');
    await store.saveTokens(key, { tokens: { access_token: 'access-123456', refresh_token: 'refresh-654321', token_type: 'Bearer', issuer: 'https://as.example' }, savedAt: 1 });
    await store.saveClient(key, { client_id: 'c1', client_secret: 'client-secret-9', issuer: 'https://as.example' });
    await store.saveBinding('remote', 'https://mcp.example/mcp', { issuer: 'https://as.example', resource: 'https://mcp.example/mcp' });
    const names = await secrets.list();
    expect(names).toHaveLength(3);
    for (const name of names) expect(isValidSecretName(name), name).toBe(true);
    expect(redactor.mask('access-123456 refresh-654321 client-secret-9')).toBe('*** *** ***');

    expect((await store.tokens(key))?.tokens.access_token).toBe('access-123456');
    expect((await store.client(key))?.client_id).toBe('c1');
    expect(await store.binding('remote', 'https://mcp.example/mcp')).toEqual({ issuer: 'https://as.example', resource: 'https://mcp.example/mcp' });
    expect(await store.binding('remote', 'https://elsewhere.example/mcp')).toBeUndefined();

    expect(await store.deleteTokens(key)).toBe(true);
    expect(await store.tokens(key)).toBeUndefined();
  });

  it('reads a damaged entry as absent', async () => {
    const secrets = new MemorySecretStore();
    const key = credentialKey('https://as.example', 'https://mcp.example/mcp');
    await secrets.set(`harbor-oauth.${key}.tokens`, '{not json');
    expect(await new OAuthCredentialStore(secrets).tokens(key)).toBeUndefined();
  });
});

describe('a saved sign-in read back from the keychain', () => {
  const URL_ = 'https://mcp.example/mcp';
  const ISSUER = 'https://as.example';
  const key = credentialKey(ISSUER, URL_);

  async function savedSignIn(tokensText: string, bindingText?: string) {
    const secrets = new MemorySecretStore();
    const store = new OAuthCredentialStore(secrets);
    await store.saveBinding('remote', URL_, { issuer: ISSUER, resource: URL_ });
    if (bindingText !== undefined) {
      const [name] = (await secrets.list()).filter((n) => n.endsWith('.binding'));
      await secrets.set(name!, bindingText);
    }
    await secrets.set(`harbor-oauth.${key}.tokens`, tokensText);
    const auth = remoteServerAuth(URL_, store);
    auth.reload();
    return { secrets, store, auth };
  }

  it('uses tokens that are what Harbor wrote', async () => {
    const { auth } = await savedSignIn(JSON.stringify({ tokens: { access_token: 'a-1', token_type: 'Bearer', issuer: ISSUER }, savedAt: 1 }));
    expect((await auth.bearerTokens())?.access_token).toBe('a-1');
    expect((await auth.tokensFor(ISSUER))?.access_token).toBe('a-1');
  });

  it.each([
    ['tokens of another shape', JSON.stringify({ tokens: { access_token: 'a-1', refresh_token: 7 }, savedAt: 'yesterday' }), undefined],
    ['tokens that are not JSON', '{not json', undefined],
    ['a binding of another shape', JSON.stringify({ tokens: { access_token: 'a-1', token_type: 'Bearer' }, savedAt: 1 }), JSON.stringify({ issuer: 5 })],
  ])('%s: no token is sent, a sign-in names the server and the fix, and logout clears it', async (_label, tokens, binding) => {
    const { auth, store, secrets } = await savedSignIn(tokens, binding);
    expect(await auth.bearerTokens()).toBeUndefined();
    const failure = await auth.tokensFor(ISSUER).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(HarborError);
    expect(failure).toMatchObject({ code: 'AUTH_FAILED' });
    expect((failure as HarborError).message).toMatch(/"remote".*damaged.*harbor logout remote/);
    expect((await store.load('remote', URL_)).damaged?.message).toBe((failure as HarborError).message);

    expect((await auth.forget()).removed).toBe(true);
    expect(await store.load('remote', URL_)).toEqual({});
    expect((await secrets.list()).filter((n) => n.endsWith('.binding'))).toEqual([]);
  });
});

describe('the "oauth" entry of a server', () => {
  it('accepts a pre-registered client whose secret is a keychain reference', () => {
    expect(parseOAuthConfig('s', { clientId: 'abc', clientSecret: '${secret:s-secret}', scope: 'read' })).toMatchObject({ clientId: 'abc', scope: 'read' });
    expect(parseOAuthConfig('s', undefined)).toBeUndefined();
  });

  it('refuses a literal client secret, a secret without an id, and a non-https metadata URL', () => {
    const fails = (value: unknown) => {
      try {
        parseOAuthConfig('s', value);
      } catch (error) {
        expect(error).toBeInstanceOf(HarborError);
        expect((error as HarborError).code).toBe('CONFIG_INVALID');
        return (error as HarborError).message;
      }
      throw new Error('expected CONFIG_INVALID');
    };
    expect(fails({ clientId: 'abc', clientSecret: 'plain-text' })).toContain('keychain');
    expect(fails({ clientSecret: '${secret:x}' })).toContain('clientId');
    expect(fails({ clientMetadataUrl: 'http://example.com/client.json' })).toContain('https');
  });
});

describe('authorization failures as the person sees them', () => {
  const required = () => new HarborError('AUTH_REQUIRED', 'sign in');

  it('maps the SDK errors to AUTH_REQUIRED or AUTH_FAILED', () => {
    expect(toAuthError(new UnauthorizedError(), 'r', required)?.code).toBe('AUTH_REQUIRED');
    expect(toAuthError(new IssuerMismatchError('authorization_response', 'https://as', 'https://evil'), 'r', required)?.code).toBe('AUTH_FAILED');
    expect(toAuthError(new OAuthError('access_denied', 'nope'), 'r', required)?.code).toBe('AUTH_REQUIRED');
    expect(toAuthError(new OAuthError('invalid_client', 'bad'), 'r', required)?.code).toBe('AUTH_FAILED');
    const rejected = new RegistrationRejectedError({ status: 400, body: '{"error":"invalid_redirect_uri"}', submittedMetadata: { redirect_uris: ['http://127.0.0.1/cb'] } });
    expect(toAuthError(rejected, 'r', required)?.message).toContain('invalid_redirect_uri');
    expect(toAuthError(new Error('ECONNREFUSED'), 'r', required)).toBeUndefined();
  });

  it('never quotes the text an authorization server (or an attacker) put in the error', () => {
    const mixup = toAuthError(new IssuerMismatchError('authorization_response', 'https://as', 'https://evil.example/<script>'), 'r', required)!;
    expect(mixup.message).not.toContain('evil');
    const oauth = toAuthError(new OAuthError('server_error', 'Visit https://phish.example to fix your account'), 'r', required)!;
    expect(oauth.message).not.toContain('phish');
    const odd = toAuthError(new OAuthError('<b>weird</b>', 'x'), 'r', required)!;
    expect(odd.message).not.toContain('<b>');
  });
});

describe('the resource indicator (RFC 8707)', () => {
  const auth = () => remoteServerAuth('https://mcp.example/mcp#fragment', new OAuthCredentialStore(new MemorySecretStore()));

  it('is the canonical server URL when no protected-resource metadata names one (the SDK would send none)', () => {
    const a = auth();
    expect(a.selectResource('https://mcp.example/mcp#fragment', undefined).href).toBe('https://mcp.example/mcp');
    expect(a.resource).toBe('https://mcp.example/mcp');
  });

  it('is the metadata value verbatim, even pathless (no "/" appended)', () => {
    const a = auth();
    expect(a.selectResource('https://mcp.example/mcp', 'https://mcp.example').href).toBe('https://mcp.example');
    expect(a.resource).toBe('https://mcp.example');
  });

  it('refuses metadata naming another resource', () => {
    expect(() => auth().selectResource('https://mcp.example/mcp', 'https://other.example/mcp')).toThrow(/not this server/);
  });
});
