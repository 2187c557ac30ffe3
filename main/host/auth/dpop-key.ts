import { DpopSession, generateDpopKeyPair, type DpopKeyPair } from '@modelcontextprotocol/client';
import { z } from 'zod';

/** Where a server's DPoP key lives (OAuthCredentialStore: the OS keychain). */
export interface DpopKeyStore {
  dpopKey(server: string, url: string): Promise<string | undefined>;
  saveDpopKey(server: string, url: string, value: string): Promise<void>;
}

const EcJwk = z.looseObject({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() });
const StoredDpopKey = z.object({
  alg: z.literal('ES256'),
  privateJwk: EcJwk.extend({ d: z.string() }),
  publicJwk: EcJwk,
  /** RFC 7638 thumbprint: what the authorization server binds tokens to (`cnf.jkt`). */
  thumbprint: z.string().min(1),
});
type StoredDpopKey = z.infer<typeof StoredDpopKey>;

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * The DPoP session of one configured server (RFC 9449): its key pair is made once, kept in the
 * keychain (it signs every proof, and tokens are bound to it, so it must outlive the process like
 * the tokens do), and loaded as a non-extractable key. An entry that cannot be read back is
 * replaced by a new key: tokens bound to the old one then fail once and are fetched again.
 * `remember` learns the private part so an echo of it would be masked.
 */
export async function loadDpopSession(store: DpopKeyStore, server: string, url: string, remember: (secret: string) => void): Promise<DpopSession> {
  let stored = readStored(await store.dpopKey(server, url));
  if (!stored) {
    stored = await createKey();
    await store.saveDpopKey(server, url, JSON.stringify(stored));
  }
  remember(stored.privateJwk.d);
  return DpopSession.create({ keyPair: await importKeyPair(stored) });
}

function readStored(text: string | undefined): StoredDpopKey | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = StoredDpopKey.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function createKey(): Promise<StoredDpopKey> {
  // Extractable only here, once, to be written to the keychain; the session uses a re-imported copy.
  const pair = await generateDpopKeyPair({ alg: 'ES256', extractable: true });
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  return StoredDpopKey.parse({ alg: 'ES256', privateJwk, publicJwk: pair.publicJwk, thumbprint: pair.thumbprint });
}

async function importKeyPair(stored: StoredDpopKey): Promise<DpopKeyPair> {
  const { kty, crv, x, y } = stored.publicJwk;
  const publicJwk = { kty, crv, x, y };
  return {
    alg: stored.alg,
    privateKey: await crypto.subtle.importKey('jwk', stored.privateJwk, ES256, false, ['sign']),
    publicKey: await crypto.subtle.importKey('jwk', publicJwk, ES256, true, ['verify']),
    publicJwk,
    thumbprint: stored.thumbprint,
  };
}
