import { OAuthError, type StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { SignInStatus } from '../../../preload/contract';
import type { TokenRecord } from './credential-store';

/** Why a sign-in Harbor held stopped being usable, or why the last one was not granted. */
interface Lapse {
  readonly state: 'expired' | 'refused';
  readonly message: string;
}

/**
 * One remote server's sign-in as the person should see it (`ServerSummary.signIn`): kept in memory
 * by its ServerAuth from what it loads, saves, drops and is refused, and read synchronously
 * whenever a summary is built (expiry is judged at that moment).
 */
export class SignInState {
  private tokens: TokenRecord | undefined;
  private lapse: Lapse | undefined;
  private loaded = false;

  constructor(
    private readonly server: string,
    private readonly now: () => number,
  ) {}

  /** The tokens found in the keychain for a new connection (none: undefined). */
  found(record: TokenRecord | undefined): void {
    this.loaded = true;
    this.tokens = record;
  }

  /** New tokens were saved (a sign-in, a refresh): whatever lapsed before no longer applies. */
  saved(record: TokenRecord): void {
    this.loaded = true;
    this.tokens = record;
    this.lapse = undefined;
  }

  /** The tokens were dropped because the authorization server stopped accepting them. */
  dropped(message?: string): void {
    if (this.tokens) this.lapse = { state: 'expired', message: `${message ? `${message} ` : ''}${this.again()}` };
    this.tokens = undefined;
  }

  /** The person signed out: nothing is held, nothing lapsed. */
  forgotten(): void {
    this.tokens = undefined;
    this.lapse = undefined;
  }

  /** A sign-in or token request failed; the authorization server's own refusal is kept to show. */
  failed(error: unknown): void {
    const refusal = refusalText(error);
    if (refusal) this.lapse = { state: 'refused', message: `The authorization server refused the sign-in: ${refusal}. ${this.again()}` };
  }

  /** Whether Harbor has looked in the keychain for this server yet. */
  get known(): boolean {
    return this.loaded;
  }

  /** Undefined until Harbor has looked in the keychain for this server. */
  view(): SignInStatus | undefined {
    if (!this.loaded && !this.lapse) return undefined;
    const record = this.tokens;
    if (record) {
      const expiresAt = record.tokens.expires_in === undefined ? undefined : record.savedAt + record.tokens.expires_in * 1000;
      const subject = subjectOf(record.tokens);
      const lapsed = expiresAt !== undefined && expiresAt <= this.now() && !record.tokens.refresh_token;
      if (!lapsed) return { state: 'signed-in', ...(subject ? { subject } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}) };
      if (this.lapse?.state !== 'refused') {
        return { state: 'expired', ...(subject ? { subject } : {}), expiresAt: expiresAt!, message: `The sign-in expired and cannot be renewed. ${this.again()}` };
      }
    }
    return this.lapse ? { state: this.lapse.state, message: this.lapse.message } : { state: 'none' };
  }

  private again(): string {
    return `Sign in again: Sign in on the server in the app, or "harbor login ${this.server}".`;
  }
}

/** The OAuth error code and description the authorization server sent (after the SDK checked its issuer). */
function refusalText(error: unknown): string | undefined {
  if (!(error instanceof OAuthError)) return undefined;
  const code = /^[a-z_]{1,64}$/.test(error.code) ? error.code : 'error';
  const description = plain(error.message);
  return description && description !== code ? `${code} — "${description}"` : code;
}

/** Whom tokens are for: the id_token's (or a JWT access token's) email, preferred_username, name or sub. Shown only, never trusted. */
function subjectOf(tokens: StoredOAuthTokens): string | undefined {
  for (const jwt of [tokens.id_token, tokens.access_token]) {
    const claims = jwtClaims(jwt);
    for (const claim of ['email', 'preferred_username', 'name', 'sub']) {
      const value = claims?.[claim];
      if (typeof value === 'string' && plain(value)) return plain(value);
    }
  }
  return undefined;
}

function jwtClaims(token: string | undefined): Record<string, unknown> | undefined {
  const parts = token?.split('.');
  if (parts?.length !== 3 || !parts[1]) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // an opaque token that happens to hold two dots: no subject to show
  }
}

/** Text another party wrote, made safe to show on one line: no control or direction characters, at most 300 characters. */
function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > 300 ? `${clean.slice(0, 299)}…` : clean;
}
