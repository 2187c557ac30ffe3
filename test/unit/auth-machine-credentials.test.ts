// The credentials of machine sign-in and DPoP: client assertions signed with a key from the
// keychain (private_key_jwt), and a server's DPoP key kept in the secret store.
import { generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { clientAssertion } from '../../main/host/auth/client-assertion';
import { OAuthCredentialStore } from '../../main/host/auth/credential-store';
import { ServerDpopKey } from '../../main/host/auth/dpop-key';
import { HarborError } from '../../main/host/errors';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';

const ISSUER = 'https://as.example';

/** Runs a client assertion the way the SDK does for a token request; the form it produced. */
async function assertionFor(privateKey: string, algorithm?: 'PS256'): Promise<{ form: URLSearchParams; reads: number }> {
  let reads = 0;
  const sign = clientAssertion({
    server: 'ci',
    clientId: 'harbor-ci',
    privateKey: async () => {
      reads++;
      return privateKey;
    },
    algorithm,
  });
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  await sign(new Headers(), form, `${ISSUER}/token`, { issuer: ISSUER, authorization_endpoint: `${ISSUER}/a`, token_endpoint: `${ISSUER}/token`, response_types_supported: ['code'] });
  return { form, reads };
}

describe('private_key_jwt client assertions', () => {
  it.each([
    ['EC P-256 (PKCS#8 PEM)', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }), 'pkcs8', 'ES256'],
    ['EC P-384 (SEC1 PEM)', () => generateKeyPairSync('ec', { namedCurve: 'P-384' }), 'sec1', 'ES384'],
    ['RSA (PKCS#1 PEM)', () => generateKeyPairSync('rsa', { modulusLength: 2048 }), 'pkcs1', 'RS256'],
    ['Ed25519 (JWK)', () => generateKeyPairSync('ed25519'), 'jwk', 'EdDSA'],
  ] as const)('%s: signed with the algorithm the key implies, iss = sub = client id, aud = issuer', async (_name, makeKey, format, alg) => {
    const { publicKey, privateKey } = makeKey();
    const text = format === 'jwk' ? JSON.stringify(privateKey.export({ format: 'jwk' })) : privateKey.export({ type: format, format: 'pem' }).toString();
    const { form } = await assertionFor(text);
    expect(form.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const assertion = form.get('client_assertion')!;
    expect(decodeProtectedHeader(assertion).alg).toBe(alg);
    const { payload } = await jwtVerify(assertion, publicKey, { issuer: 'harbor-ci', subject: 'harbor-ci', audience: ISSUER });
    expect(payload.jti).toEqual(expect.any(String));
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(300);
  });

  it('a configured algorithm wins (PS256 with an RSA key)', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { form } = await assertionFor(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'PS256');
    const assertion = form.get('client_assertion')!;
    expect(decodeProtectedHeader(assertion).alg).toBe('PS256');
    await jwtVerify(assertion, publicKey);
  });

  it('a value that is not a private key is CONFIG_INVALID, without repeating it, and is read again next time', async () => {
    const secretLooking = 'not-a-key-but-secret-9f8e7d';
    let reads = 0;
    const sign = clientAssertion({ server: 'ci', clientId: 'harbor-ci', privateKey: async () => (reads++, secretLooking), algorithm: undefined });
    for (let i = 0; i < 2; i++) {
      const error = await Promise.resolve(sign(new Headers(), new URLSearchParams(), `${ISSUER}/token`)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(HarborError);
      expect((error as HarborError).code).toBe('CONFIG_INVALID');
      expect((error as HarborError).message).toContain('"oauth.privateKey"');
      expect((error as HarborError).message).not.toContain(secretLooking);
    }
    expect(reads).toBe(2);
    // A public key stored by mistake is refused the same way.
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await expect(assertionFor(publicKey.export({ type: 'spki', format: 'pem' }).toString())).rejects.toThrow(/not a PEM or JWK private key/);
  });

  it('a key type that cannot sign an assertion says which keys can', async () => {
    const { privateKey } = generateKeyPairSync('x25519');
    await expect(assertionFor(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).rejects.toThrow(/x25519 key, which cannot sign a client assertion/);
  });
});

describe("a server's DPoP key", () => {
  const setup = () => {
    const secrets = new MemorySecretStore();
    const remembered: string[] = [];
    const key = (server = 'remote') => new ServerDpopKey(new OAuthCredentialStore(secrets), server, 'https://mcp.example/mcp', (s) => remembered.push(s));
    return { secrets, remembered, key };
  };

  it('is made only for a token request, kept in the secret store, and the same key in the next process', async () => {
    const { secrets, remembered, key } = setup();
    const first = key();
    expect(await first.session(false)).toBeUndefined(); // requests without tokens make no key
    expect(await secrets.list()).toEqual([]);

    const session = (await first.session(true))!;
    expect(await first.session(false)).toBe(session); // one session (its nonces) per server
    const names = await secrets.list();
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^harbor-oauth\.[0-9a-f]{32}\.dpop$/);
    const stored = JSON.parse((await secrets.get(names[0]!))!) as { privateJwk: { d: string } };
    expect(remembered).toEqual([stored.privateJwk.d]); // an echo of the private key would be masked
    expect(session.thumbprint).toBe(await calculateJwkThumbprint(session.publicJwk, 'sha256'));

    // A proof verifies with the public key it carries.
    const proof = await session.buildProof({ htm: 'POST', htu: 'https://mcp.example/mcp?x=1', accessToken: 'at' });
    const header = decodeProtectedHeader(proof);
    expect(header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256' });
    expect(header.jwk).not.toHaveProperty('d');
    await jwtVerify(proof, await importJWK(header.jwk!, 'ES256'));
    expect(decodeJwt(proof)).toMatchObject({ htm: 'POST', htu: 'https://mcp.example/mcp' });

    const next = key();
    expect((await next.session(false))!.thumbprint).toBe(session.thumbprint);
    expect((await key('other').session(true))!.thumbprint).not.toBe(session.thumbprint); // per server
  });

  it('a damaged entry is replaced when the next token is requested; forget removes the key', async () => {
    const { secrets, key } = setup();
    const original = (await key().session(true))!;
    const [name] = await secrets.list();
    await secrets.set(name!, '{"alg":"none"}');
    const damaged = key();
    expect(await damaged.session(false)).toBeUndefined();
    const replaced = (await damaged.session(true))!;
    expect(replaced.thumbprint).not.toBe(original.thumbprint);
    expect(await damaged.forget()).toBe(true);
    expect(await secrets.list()).toEqual([]);
    expect(await damaged.session(false)).toBeUndefined();
    expect(await secrets.list()).toEqual([]);
  });

  it('signs with a key that cannot be exported', async () => {
    const { key } = setup();
    const session = (await key().session(true))!;
    // The session's key pair is the SDK's private field: read here only to check what Harbor handed it.
    const pair = (session as unknown as { keyPair: { privateKey: CryptoKey } }).keyPair;
    expect(pair.privateKey.extractable).toBe(false);
  });
});
