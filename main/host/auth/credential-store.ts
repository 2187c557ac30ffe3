import { createHash } from 'node:crypto';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
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

/** Names in the secret store; values are JSON. Hashes keep them within the store's name rules. */
const PREFIX = 'harbor-oauth';

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
}

/** RFC 8414 issuers are compared allowing one trailing slash (as the SDK does). */
function normalizeIssuer(issuer: string): string {
  return issuer.endsWith('/') ? issuer.slice(0, -1) : issuer;
}

export function credentialKey(issuer: string, resource: string): string {
  return digest('credentials', normalizeIssuer(issuer), resource);
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

  async tokens(key: string): Promise<TokenRecord | undefined> {
    const record = await this.read<TokenRecord>(`${PREFIX}.${key}.tokens`);
    if (!record || typeof record.tokens?.access_token !== 'string') return undefined;
    this.remember(record.tokens);
    return record;
  }

  async saveTokens(key: string, record: TokenRecord): Promise<void> {
    this.remember(record.tokens);
    await this.secrets.set(`${PREFIX}.${key}.tokens`, JSON.stringify(record));
  }

  async deleteTokens(key: string): Promise<boolean> {
    return this.secrets.delete(`${PREFIX}.${key}.tokens`);
  }

  async client(key: string): Promise<StoredOAuthClientInformation | undefined> {
    const info = await this.read<StoredOAuthClientInformation>(`${PREFIX}.${key}.client`);
    if (!info || typeof info.client_id !== 'string') return undefined;
    if (info.client_secret) this.redactor?.add(info.client_secret);
    return info;
  }

  async saveClient(key: string, info: StoredOAuthClientInformation): Promise<void> {
    if (info.client_secret) this.redactor?.add(info.client_secret);
    await this.secrets.set(`${PREFIX}.${key}.client`, JSON.stringify(info));
  }

  async deleteClient(key: string): Promise<boolean> {
    return this.secrets.delete(`${PREFIX}.${key}.client`);
  }

  async binding(server: string, url: string): Promise<Binding | undefined> {
    const binding = await this.read<Binding>(this.bindingName(server, url));
    return binding && typeof binding.issuer === 'string' && typeof binding.resource === 'string' ? binding : undefined;
  }

  async saveBinding(server: string, url: string, binding: Binding): Promise<void> {
    await this.secrets.set(this.bindingName(server, url), JSON.stringify(binding));
  }

  async deleteBinding(server: string, url: string): Promise<boolean> {
    return this.secrets.delete(this.bindingName(server, url));
  }

  private bindingName(server: string, url: string): string {
    return `${PREFIX}.${digest('server', server, url)}.binding`;
  }

  private async read<T>(name: string): Promise<T | undefined> {
    const text = await this.secrets.get(name);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined; // a damaged entry reads as absent: the person signs in again
    }
  }

  private remember(tokens: StoredOAuthTokens): void {
    this.redactor?.add(tokens.access_token);
    if (tokens.refresh_token) this.redactor?.add(tokens.refresh_token);
    if (tokens.id_token) this.redactor?.add(tokens.id_token);
  }
}
