import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createPrivateKeyJwtAuth, type AddClientAuthentication } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import type { CLIENT_ASSERTION_ALGORITHMS } from '../registry/oauth-config';

type AssertionAlgorithm = (typeof CLIENT_ASSERTION_ALGORITHMS)[number];

export interface ClientAssertionOptions {
  readonly server: string;
  readonly clientId: string;
  /** Resolves `oauth.privateKey` from the keychain (only when a token is actually requested). */
  readonly privateKey: () => Promise<string>;
  readonly algorithm: AssertionAlgorithm | undefined;
}

/**
 * private_key_jwt (RFC 7523 §2.2): every token request carries a fresh assertion signed with the
 * client's private key (`iss` = `sub` = the client id, `aud` = the authorization server's issuer),
 * built by the SDK. The key is read from the keychain at the first token request, as PEM
 * (PKCS#8, SEC1 or PKCS#1) or as a JWK, and the algorithm follows from its type unless configured.
 */
export function clientAssertion(options: ClientAssertionOptions): AddClientAuthentication {
  let signer: Promise<AddClientAuthentication> | undefined;
  const build = async (): Promise<AddClientAuthentication> => {
    const key = parsePrivateKey(await options.privateKey(), options.server);
    const alg = options.algorithm ?? algorithmFor(key, options.server);
    return createPrivateKeyJwtAuth({
      issuer: options.clientId,
      subject: options.clientId,
      privateKey: key.export({ format: 'jwk' }) as Record<string, unknown>,
      alg,
    });
  };
  return async (headers, params, url, metadata) => {
    signer ??= build().catch((error: unknown) => {
      signer = undefined; // a fixed keychain entry is read again next time
      throw error;
    });
    await (await signer)(headers, params, url, metadata);
  };
}

function parsePrivateKey(text: string, server: string): KeyObject {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith('{')) return createPrivateKey({ key: JSON.parse(trimmed) as JsonWebKey, format: 'jwk' });
    return createPrivateKey({ key: trimmed, format: 'pem' });
  } catch {
    // The parser's message may quote part of the key: never repeated.
    throw new HarborError(
      'CONFIG_INVALID',
      `The private key of "${server}" ("oauth.privateKey") is not a PEM or JWK private key. Store the client's private key (PEM, e.g. "-----BEGIN PRIVATE KEY-----…", or a JWK) with "harbor secret set NAME".`,
    );
  }
}

/** The JWS algorithm a key's type implies (RFC 7518); RSA keys default to RS256. */
function algorithmFor(key: KeyObject, server: string): AssertionAlgorithm {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  switch (key.asymmetricKeyType) {
    case 'ec':
      if (curve === 'prime256v1') return 'ES256';
      if (curve === 'secp384r1') return 'ES384';
      if (curve === 'secp521r1') return 'ES512';
      break;
    case 'rsa':
      return 'RS256';
    case 'rsa-pss':
      return 'PS256';
    case 'ed25519':
      return 'EdDSA';
  }
  throw new HarborError(
    'CONFIG_INVALID',
    `The private key of "${server}" ("oauth.privateKey") is a ${key.asymmetricKeyType ?? 'unknown'}${curve ? ` ${curve}` : ''} key, which cannot sign a client assertion. Use an EC (P-256, P-384, P-521), RSA or Ed25519 key.`,
  );
}
