import { createHash } from 'node:crypto';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { canonical } from '../canonical-json';
import { HarborError } from '../errors';
import type { Redactor } from '../secrets/redactor';
import type { SecretStore } from '../secrets/store';

/** Tokens as kept: the SDK's stored tokens plus when they were saved (expires_in counts from there). */
export interface TokenRecord {
  readonly tokens: StoredOAuthTokens;
  readonly savedAt: number;
}

/** Which authorization server and resource a configured server's credentials belong to. */
export interface Binding {
  readonly issuer: string;
  readonly resource: string;
  /** RFC 7009 endpoint, remembered so `harbor logout` can revoke without discovery. */
  readonly revocationEndpoint?: string;
}

// What Harbor wrote, checked on the way back: the fields Harbor and the SDK rely on must have
// their types; anything else the SDK stored is kept as it was (loose objects).
const TokenRecordEntry: z.ZodType<TokenRecord> = z.object({
  tokens: z.looseObject({
    access_token: z.string(),
    token_type: z.string(),
    id_token: z.string().optional(),
    expires_in: z.number().optional(),
    scope: z.string().optional(),
    refresh_token: z.string().optional(),
    issuer: z.string().optional(),
  }),
  savedAt: z.number(),
});
const ClientEntry: z.ZodType<StoredOAuthClientInformation> = z.looseObject({
  client_id: z.string(),
  client_secret: z.string().optional(),
  redirect_uris: z.array(z.string()).optional(),
  issuer: z.string().optional(),
});
const BindingEntry: z.ZodType<Binding> = z.object({
  issuer: z.string(),
  resource: z.string(),
  revocationEndpoint: z.string().optional(),
});

type Entry<T> = { readonly state: 'missing' } | { readonly state: 'found'; readonly value: T } | { readonly state: 'damaged' };

/** A configured server's saved sign-in as `ServerAuth` loads it for each new transport. */
export interface SavedSignIn {
  readonly binding?: Binding;
  readonly tokens?: TokenRecord;
  /** Set when the binding or its tokens cannot be read back. */
  readonly damaged?: DamagedSignInError;
}

/** Names in the secret store; values are JSON. Hashes keep them within the store's name rules. */
const PREFIX = 'harbor-oauth';

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
}

/** RFC 8414 issuers are compared allowing one trailing slash (as the SDK does). */
function normalizeIssuer(issuer: string): string {
  return issuer.endsWith('/') ? issuer.slice(0, -1) : issuer;
}

/**
 * What a server's saved sign-in is bound to besides its name and URL: the digest of its `oauth`
 * block as written ('' without one, the name earlier versions used). Replacing the block — another
 * authorization server, client or scopes — leaves the sign-in made under the old one behind (#27.8).
 */
export function oauthScope(oauth: unknown): string {
  return oauth === undefined || oauth === null ? '' : digest('oauth', canonical(oauth));
}

/** Tokens and client registrations: per authorization server and resource, and per oauth block (oauthScope) when there is one. */
export function credentialKey(issuer: string, resource: string, oauth = ''): string {
  return oauth ? digest('credentials', normalizeIssuer(issuer), resource, oauth) : digest('credentials', normalizeIssuer(issuer), resource);
}

/**
 * OAuth tokens and client registrations in the OS keychain (through the SecretStore port), keyed
 * by authorization-server issuer + resource, so credentials from one authorization server are
 * never offered to another. A per-server binding remembers which key a configured server used
 * last. Values never go to files or logs; every token read or written joins the redactor so a
 * server echoing one back is masked.
 */
export class OAuthCredentialStore {
  constructor(
    private readonly secrets: SecretStore,
    private readonly redactor?: Redactor,
  ) {}

  /** The tokens under `key`; a damaged entry reads as absent (the next sign-in replaces it). */
  async tokens(key: string): Promise<TokenRecord | undefined> {
    const entry = await this.read(`${PREFIX}.${key}.tokens`, TokenRecordEntry);
    if (entry.state !== 'found') return undefined;
    this.remember(entry.value.tokens);
    return entry.value;
  }

  async saveTokens(key: string, record: TokenRecord): Promise<void> {
    this.remember(record.tokens);
    await this.secrets.set(`${PREFIX}.${key}.tokens`, JSON.stringify(record));
  }

  async deleteTokens(key: string): Promise<boolean> {
    return this.secrets.delete(`${PREFIX}.${key}.tokens`);
  }

  /** The client registration under `key`; a damaged one reads as absent (the SDK registers again). */
  async client(key: string): Promise<StoredOAuthClientInformation | undefined> {
    const entry = await this.read(`${PREFIX}.${key}.client`, ClientEntry);
    if (entry.state !== 'found') return undefined;
    if (entry.value.client_secret) this.redactor?.add(entry.value.client_secret);
    return entry.value;
  }

  async saveClient(key: string, info: StoredOAuthClientInformation): Promise<void> {
    if (info.client_secret) this.redactor?.add(info.client_secret);
    await this.secrets.set(`${PREFIX}.${key}.client`, JSON.stringify(info));
  }

  async deleteClient(key: string): Promise<boolean> {
    return this.secrets.delete(`${PREFIX}.${key}.client`);
  }

  async binding(server: string, url: string, oauth = ''): Promise<Binding | undefined> {
    const entry = await this.read(this.bindingName(server, url, oauth), BindingEntry);
    return entry.state === 'found' ? entry.value : undefined;
  }

  /**
   * What a configured server's sign-in starts from: its binding and that binding's tokens. An
   * entry that is there but cannot be read back (not JSON, or not what Harbor wrote) is reported
   * as `damaged`, with the fix: a sign-in would not replace the entry the server is bound to.
   * `oauth`: the server's oauthScope (a sign-in made under another oauth block is not found).
   */
  async load(server: string, url: string, oauth = ''): Promise<SavedSignIn> {
    const binding = await this.read(this.bindingName(server, url, oauth), BindingEntry);
    if (binding.state === 'damaged') return { damaged: new DamagedSignInError(server, 'binding') };
    if (binding.state === 'missing') return {};
    const key = credentialKey(binding.value.issuer, binding.value.resource, oauth);
    const tokens = await this.read(`${PREFIX}.${key}.tokens`, TokenRecordEntry);
    if (tokens.state === 'damaged') return { binding: binding.value, damaged: new DamagedSignInError(server, 'tokens') };
    if (tokens.state === 'missing') return { binding: binding.value };
    this.remember(tokens.value.tokens);
    return { binding: binding.value, tokens: tokens.value };
  }

  async saveBinding(server: string, url: string, binding: Binding, oauth = ''): Promise<void> {
    await this.secrets.set(this.bindingName(server, url, oauth), JSON.stringify(binding));
  }

  async deleteBinding(server: string, url: string, oauth = ''): Promise<boolean> {
    return this.secrets.delete(this.bindingName(server, url, oauth));
  }

  /** A server's DPoP key pair as dpop-key.ts stores it (JSON): a private key, so in the keychain. */
  async dpopKey(server: string, url: string): Promise<string | undefined> {
    return this.secrets.get(this.serverEntryName(server, url, 'dpop'));
  }

  async saveDpopKey(server: string, url: string, value: string): Promise<void> {
    await this.secrets.set(this.serverEntryName(server, url, 'dpop'), value);
  }

  async deleteDpopKey(server: string, url: string): Promise<boolean> {
    return this.secrets.delete(this.serverEntryName(server, url, 'dpop'));
  }

  private bindingName(server: string, url: string, oauth: string): string {
    return oauth ? `${PREFIX}.${digest('server', server, url, oauth)}.binding` : this.serverEntryName(server, url, 'binding');
  }

  private serverEntryName(server: string, url: string, entry: 'binding' | 'dpop'): string {
    return `${PREFIX}.${digest('server', server, url)}.${entry}`;
  }

  private async read<T>(name: string, schema: z.ZodType<T>): Promise<Entry<T>> {
    const text = await this.secrets.get(name);
    if (text === undefined) return { state: 'missing' };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { state: 'damaged' };
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? { state: 'found', value: parsed.data } : { state: 'damaged' };
  }

  private remember(tokens: StoredOAuthTokens): void {
    this.redactor?.add(tokens.access_token);
    if (tokens.refresh_token) this.redactor?.add(tokens.refresh_token);
    if (tokens.id_token) this.redactor?.add(tokens.id_token);
  }
}

/** A saved sign-in that cannot be read back; the message names the server and the fix. */
export class DamagedSignInError extends HarborError {
  constructor(server: string, entry: 'binding' | 'tokens') {
    super(
      'AUTH_FAILED',
      `The sign-in saved for "${server}" in the keychain is damaged (its ${entry} entry is not what Harbor wrote). Run "harbor logout ${server}", then sign in again ("harbor login ${server}", or Sign in in the app).`,
    );
  }
}
