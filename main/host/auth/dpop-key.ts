import { DpopSession, generateDpopKeyPair, type DpopKeyPair } from '@modelcontextprotocol/client';
import { z } from 'zod';

/** Where a server's DPoP key lives (OAuthCredentialStore: the OS keychain). */
export interface DpopKeyStore {
  dpopKey(server: string, url: string): Promise<string | undefined>;
  saveDpopKey(server: string, url: string, value: string): Promise<void>;
  deleteDpopKey(server: string, url: string): Promise<boolean>;
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
 * The DPoP key of one configured server (RFC 9449): made once, when its first token is about to
 * be requested, and kept in the keychain — it signs every proof and the tokens are bound to it, so
 * it must outlive the process as the tokens do. It is used as a non-extractable key. An entry that
 * cannot be read back is replaced by a new key when the next token is requested: tokens bound to
 * the old one then fail once and are fetched again.
 */
export class ServerDpopKey {
  /** The loaded session; resolves undefined while no key is stored (and none was needed). */
  private pending: Promise<DpopSession | undefined> | undefined;
  private absent = false;

  constructor(
    private readonly store: DpopKeyStore,
    private readonly server: string,
    private readonly url: string,
    /** Learns the private part so an echo of it would be masked. */
    private readonly remember: (secret: string) => void,
  ) {}

  /**
   * The session for this server's proofs, the same one across calls (its nonces live in it). A key
   * is made only when `create` (a token request follows): requests made without tokens, e.g. while
   * a connection closes after a logout, never leave a new key behind.
   */
  async session(create: boolean): Promise<DpopSession | undefined> {
    for (;;) {
      const pending = (this.pending ??= this.load(create).catch((error: unknown) => {
        this.pending = undefined; // a keychain that comes back is tried again
        throw error;
      }));
      const session = await pending;
      if (session || !create) return session;
      if (this.pending === pending) this.pending = undefined; // none stored, one is needed now
    }
  }

  /** A new connection: a key another Harbor process made meanwhile is looked for again. */
  reload(): void {
    if (this.absent) this.pending = undefined;
  }

  /** Signing out: the key goes with the tokens bound to it. */
  async forget(): Promise<boolean> {
    this.pending = undefined;
    return this.store.deleteDpopKey(this.server, this.url);
  }

  private async load(create: boolean): Promise<DpopSession | undefined> {
    let stored = readStored(await this.store.dpopKey(this.server, this.url));
    if (!stored && !create) {
      this.absent = true;
      return undefined;
    }
    if (!stored) {
      stored = await createKey();
      await this.store.saveDpopKey(this.server, this.url, JSON.stringify(stored));
    }
    this.absent = false;
    this.remember(stored.privateJwk.d);
    return DpopSession.create({ keyPair: await importKeyPair(stored) });
  }
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
