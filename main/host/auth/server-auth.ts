import {
  OAuthError,
  checkResourceAllowed,
  discoverOAuthServerInfo,
  refreshAuthorization,
  resourceUrlFromServerUrl,
  type AddClientAuthentication,
  type DpopSession,
  type FetchLike,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import { effectiveAuthMethod } from '../registry/oauth-config';
import type { LoopbackCallbackServer } from './callback-server';
import { clientAssertion } from './client-assertion';
import { isMachineGrant, type OAuthServerConfig } from './config';
import { DamagedSignInError, credentialKey, type Binding, type OAuthCredentialStore, type TokenRecord } from './credential-store';
import { ServerDpopKey } from './dpop-key';
import type { BrowserOpener } from './opener';
import { revokeTokens } from './revocation';
import { SignInState } from './sign-in-state';
import { browserUrlProblem } from './url-policy';
import { verbatimUrl } from './verbatim-url';

export interface ServerAuthDeps {
  readonly server: string;
  /** The MCP endpoint. */
  readonly url: string;
  /** oauthScope of the server's `oauth` block: the saved sign-in is bound to it as well as to name and URL. */
  readonly oauth: string;
  readonly store: OAuthCredentialStore;
  readonly callbacks: LoopbackCallbackServer;
  /** CIMD: the https URL of Harbor's client metadata document, if one is hosted (config wins). */
  readonly clientMetadataUrl: string | undefined;
  readonly clientName: string;
  readonly clientVersion: string;
  /** Resolves `${secret:…}` references of the `oauth` entry (client secret, private key, tokens). */
  readonly resolveSecret: (where: string, value: string) => Promise<string>;
  /** Learns a credential Harbor holds (a DPoP key, a workload token) so echoes of it are masked. */
  readonly remember: (secret: string) => void;
  readonly callbackTimeoutMs: number;
  readonly fetch: FetchLike;
  readonly now: () => number;
  /** Told about every sign-in page opened (the app shows the URL beside the browser). */
  readonly onOpen?: (url: URL) => void;
}

/** RFC 8414 issuers compared as the SDK does: exact, or differing by one trailing slash. */
export function sameIssuer(a: string, b: string): boolean {
  const trim = (s: string) => (s.endsWith('/') ? s.slice(0, -1) : s);
  return trim(a) === trim(b);
}

/**
 * Everything one configured remote server's sign-in needs that outlives a single transport:
 * its credentials (cached over the keychain, re-read on every new connection so a sign-in from
 * another Harbor process is seen), the discovery state, the resource indicator, and whether a
 * browser may be opened right now. Transports get an OAuthSession each (session.ts).
 */
export class ServerAuth {
  /** The server's `oauth` entry (re-read for every new transport: the registry may have changed). */
  config: OAuthServerConfig | undefined;
  /** The opener while a sign-in is allowed (`harbor login`, the app's Sign in, or always in automatic mode). */
  opener: BrowserOpener | undefined;
  /** RFC 9728 / RFC 8414 results, in memory only: a restart rediscovers. */
  discovery: OAuthDiscoveryState | undefined;
  /** RFC 8707 resource indicator of the flow in progress (the canonical server URL unless PRM narrows it). */
  resource: string;
  private binding: Binding | undefined;
  private current: TokenRecord | undefined;
  /** Key (issuer + resource) of the credentials the SDK's current flow works with. */
  private flowKey: string | undefined;
  private loading: Promise<void> = Promise.resolve();
  /** Set when the keychain could not be read: sign-in then reports it (reads degrade, never fail a public server). */
  private loadError: unknown;
  private refreshing: Promise<void> | undefined;
  /** This server's DPoP key (used with `"dpop": true`). */
  private readonly dpopKey: ServerDpopKey;
  /** The private_key_jwt signer and the configuration it was made for. */
  private assertion: { readonly config: OAuthServerConfig; readonly sign: AddClientAuthentication } | undefined;
  /** What the person is shown about this sign-in (ServerSummary.signIn). */
  readonly status: SignInState;

  constructor(readonly deps: ServerAuthDeps) {
    this.resource = resourceUrlFromServerUrl(deps.url).href;
    this.dpopKey = new ServerDpopKey(deps.store, deps.server, deps.url, deps.remember);
    this.status = new SignInState(deps.server, deps.now);
  }

  get server(): string {
    return this.deps.server;
  }

  get clientMetadataUrl(): string | undefined {
    return this.config?.clientMetadataUrl ?? this.deps.clientMetadataUrl;
  }

  /**
   * Re-reads the binding and its tokens from the store (called for every new transport). A
   * damaged entry leaves no tokens: requests go out without one, and a sign-in reports the damage.
   */
  reload(): void {
    this.dpopKey.reload();
    this.loading = (async () => {
      this.loadError = undefined;
      try {
        const saved = await this.deps.store.load(this.deps.server, this.deps.url, this.deps.oauth);
        this.binding = saved.binding;
        this.current = saved.tokens;
        this.status.found(saved.tokens);
        if (saved.binding) this.resource = saved.binding.resource;
        this.loadError = saved.damaged;
      } catch (error) {
        this.loadError = error;
        this.binding = undefined;
        this.current = undefined;
      }
    })();
  }

  /** Resolves once the last reload finished (its failure is kept for sign-in to report). */
  loaded(): Promise<void> {
    return this.loading;
  }

  /** The bearer token for the next request (refreshed first when it is about to expire). */
  async bearerTokens(): Promise<StoredOAuthTokens | undefined> {
    await this.loading;
    await this.refreshIfExpiring();
    // A machine grant's expired token is not sent: the server's 401 makes the SDK fetch a new one.
    if (this.current && isMachineGrant(this.config) && this.expiresSoon(this.current) && !this.current.tokens.refresh_token) return undefined;
    return this.current?.tokens;
  }

  /**
   * private_key_jwt: client assertions signed with the configured key, for every token request
   * (grant, refresh, revocation); undefined for the other methods (the SDK applies those).
   */
  clientAuthentication(): AddClientAuthentication | undefined {
    const config = this.config;
    if (!config?.clientId || effectiveAuthMethod(config) !== 'private_key_jwt' || !config.privateKey) return undefined;
    if (this.assertion?.config !== config) {
      const privateKey = config.privateKey;
      const sign = clientAssertion({
        server: this.deps.server,
        clientId: config.clientId,
        privateKey: () => this.deps.resolveSecret('oauth.privateKey', privateKey),
        algorithm: config.signingAlgorithm,
      });
      this.assertion = { config, sign };
    }
    return this.assertion.sign;
  }

  /**
   * The DPoP session for this server's tokens when `"dpop": true`, else undefined (Bearer tokens).
   * `forTokenRequest`: a token is about to be requested, so a key is made if there is none yet.
   */
  async dpopSession(forTokenRequest: boolean): Promise<DpopSession | undefined> {
    return this.config?.dpop ? this.dpopKey.session(forTokenRequest) : undefined;
  }

  async tokensFor(issuer: string): Promise<StoredOAuthTokens | undefined> {
    await this.ready();
    const key = credentialKey(issuer, this.resource, this.deps.oauth);
    this.flowKey = key;
    if (this.binding && credentialKey(this.binding.issuer, this.binding.resource, this.deps.oauth) === key) return this.current?.tokens;
    return (await this.deps.store.tokens(key))?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, issuer: string): Promise<void> {
    await this.loading;
    const key = credentialKey(issuer, this.resource, this.deps.oauth);
    this.flowKey = key;
    const record: TokenRecord = { tokens, savedAt: this.deps.now() };
    await this.deps.store.saveTokens(key, record);
    this.current = record;
    this.status.saved(record);
    const advertised = (this.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
    const revocationEndpoint = typeof advertised === 'string' ? advertised : undefined;
    const binding: Binding = { issuer, resource: this.resource, ...(revocationEndpoint ? { revocationEndpoint } : {}) };
    if (JSON.stringify(binding) !== JSON.stringify(this.binding)) {
      await this.deps.store.saveBinding(this.deps.server, this.deps.url, binding, this.deps.oauth);
      this.binding = binding;
    }
  }

  /**
   * The client Harbor is at this authorization server: the pre-registered one from the config,
   * else a stored registration (CIMD or DCR). A DCR registration whose redirect URI is not the
   * loopback listener's current one is dropped so the SDK registers again. With none and no
   * sign-in allowed, this stops the flow before the SDK registers anything on the person's behalf.
   */
  async clientFor(issuer: string, options: { mayRegister: boolean }): Promise<StoredOAuthClientInformation | undefined> {
    await this.ready();
    const config = this.config;
    if (config?.clientId) {
      if (config.issuer && !sameIssuer(config.issuer, issuer)) {
        throw new HarborError(
          'AUTH_FAILED',
          `"${this.deps.server}" now uses the authorization server ${issuer}, but its pre-registered client ("oauth.clientId") is for ${config.issuer}. Register Harbor there and update "oauth" in the registry.`,
        );
      }
      const secret = config.clientSecret ? await this.deps.resolveSecret('oauth.clientSecret', config.clientSecret) : undefined;
      // A configured method the SDK knows (basic, post, none) is the one it uses; private_key_jwt is the session's addClientAuthentication.
      const method = config.tokenEndpointAuthMethod && config.tokenEndpointAuthMethod !== 'private_key_jwt' ? { token_endpoint_auth_method: config.tokenEndpointAuthMethod } : {};
      return { client_id: config.clientId, ...(secret ? { client_secret: secret } : {}), ...method, issuer: config.issuer ?? issuer };
    }
    const key = credentialKey(issuer, this.resource, this.deps.oauth);
    this.flowKey = key;
    const stored = await this.deps.store.client(key);
    if (!options.mayRegister) {
      // No new sign-in can follow, so the redirect URI does not matter: the stored client may still refresh.
      if (stored) return stored;
      throw this.signInRequired();
    }
    const registeredRedirects = stored && 'redirect_uris' in stored ? stored.redirect_uris : undefined;
    const redirectMoved = registeredRedirects && this.deps.callbacks.listening && !registeredRedirects.includes(this.deps.callbacks.redirectUrl);
    return stored && !redirectMoved ? stored : undefined;
  }

  async saveClient(info: StoredOAuthClientInformation, issuer: string): Promise<void> {
    if (this.config?.clientId) return; // the configured client is the one to use; nothing to store
    const key = credentialKey(issuer, this.resource, this.deps.oauth);
    this.flowKey = key;
    await this.deps.store.saveClient(key, info);
  }

  /** The port a stored DCR registration names, so the listener can take it again (no re-registration). */
  async preferredRedirectPort(): Promise<number | undefined> {
    await this.loading;
    if (!this.binding) return undefined;
    try {
      const info = await this.deps.store.client(credentialKey(this.binding.issuer, this.binding.resource, this.deps.oauth));
      const uri = info && 'redirect_uris' in info ? info.redirect_uris?.[0] : undefined;
      const port = uri ? Number(new URL(uri).port) : NaN;
      return Number.isInteger(port) && port > 0 ? port : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * RFC 8707: the resource indicator is always sent (the SDK omits it without protected-resource
   * metadata). Metadata naming another resource than this server means credentials would be
   * minted for something else: refused.
   */
  selectResource(serverUrl: string | URL, advertised: string | undefined): URL {
    const canonical = resourceUrlFromServerUrl(serverUrl);
    if (advertised) {
      if (!checkResourceAllowed({ requestedResource: canonical, configuredResource: advertised })) {
        throw new HarborError(
          'AUTH_FAILED',
          `"${this.deps.server}" publishes protected-resource metadata for ${advertised}, which is not this server (${canonical.href}). Harbor will not get credentials for another resource; ask the server's operator to fix its metadata.`,
        );
      }
      this.resource = advertised;
      return verbatimUrl(advertised);
    }
    this.resource = canonical.href;
    return canonical;
  }

  /** PKCE S256 is required by the spec; an authorization server that does not advertise it is refused (the SDK proceeds). */
  assertPkceS256(): void {
    const methods = this.discovery?.authorizationServerMetadata?.code_challenge_methods_supported;
    if (!methods?.includes('S256')) {
      const where = this.discovery?.authorizationServerUrl ? ` (${this.discovery.authorizationServerUrl})` : '';
      throw new HarborError(
        'AUTH_FAILED',
        `The authorization server of "${this.deps.server}"${where} does not advertise PKCE with S256 (code_challenge_methods_supported), which MCP requires. Harbor will not sign in there; ask the server's operator.`,
      );
    }
  }

  async invalidate(scope: 'all' | 'client' | 'tokens' | 'discovery'): Promise<void> {
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    await this.loading;
    const key = this.flowKey ?? (this.binding ? credentialKey(this.binding.issuer, this.binding.resource, this.deps.oauth) : undefined);
    if (!key) return;
    if (scope === 'tokens' || scope === 'all') {
      await this.deps.store.deleteTokens(key);
      if (this.binding && credentialKey(this.binding.issuer, this.binding.resource, this.deps.oauth) === key) this.current = undefined;
      this.status.dropped("The authorization server no longer accepts Harbor's token.");
    }
    if ((scope === 'client' || scope === 'all') && !this.config?.clientId) await this.deps.store.deleteClient(key);
  }

  /**
   * `harbor logout`: revokes at the authorization server when it can (best effort), then forgets.
   * It is also the fix for a damaged saved sign-in, so damage does not stop it: whatever entries
   * can be found are removed.
   */
  async forget(): Promise<{ removed: boolean; revoked: boolean }> {
    this.reload();
    await this.loading;
    if (this.loadError && !this.damaged) throw this.loadError; // KEYCHAIN_UNAVAILABLE with its fix
    const binding = this.binding;
    this.discovery = undefined;
    const removed: boolean[] = [];
    let revoked = false;
    if (binding) {
      const key = credentialKey(binding.issuer, binding.resource, this.deps.oauth);
      revoked = this.current ? await this.revoke(binding, this.current.tokens, key) : false;
      removed.push(await this.deps.store.deleteTokens(key), await this.deps.store.deleteClient(key));
    }
    if (binding || this.damaged) removed.push(await this.deps.store.deleteBinding(this.deps.server, this.deps.url, this.deps.oauth));
    removed.push(await this.dpopKey.forget());
    this.binding = undefined;
    this.current = undefined;
    this.flowKey = undefined;
    this.loadError = undefined;
    this.status.forgotten();
    return { removed: removed.some(Boolean), revoked };
  }

  /** Whether the last load found the saved sign-in damaged (see OAuthCredentialStore.load). */
  private get damaged(): boolean {
    return this.loadError instanceof DamagedSignInError;
  }

  signInRequired(): HarborError {
    return new HarborError('AUTH_REQUIRED', `"${this.deps.server}" requires sign-in. Run "harbor login ${this.deps.server}" (in the app: Sign in).`);
  }

  private async ready(): Promise<void> {
    await this.loading;
    if (this.loadError) throw this.loadError; // KEYCHAIN_UNAVAILABLE, or a damaged saved sign-in, with its fix
  }

  private async refreshIfExpiring(): Promise<void> {
    const record = this.current;
    if (!record?.tokens.refresh_token || !this.expiresSoon(record)) return;
    this.refreshing ??= this.refresh(record).finally(() => {
      this.refreshing = undefined;
    });
    await this.refreshing;
  }

  /** Expired, or inside the last half of its life (at most the last minute). */
  private expiresSoon(record: TokenRecord): boolean {
    const lifetime = record.tokens.expires_in;
    if (lifetime === undefined) return false;
    const expiresAt = record.savedAt + lifetime * 1000;
    return expiresAt - this.deps.now() < Math.min(60_000, (lifetime * 1000) / 2);
  }

  /**
   * Refresh before expiry, so a request never goes out with a token about to lapse. Failures are
   * left to the 401 path, except a dead grant (revoked, expired): those tokens are dropped.
   */
  private async refresh(record: TokenRecord): Promise<void> {
    const binding = this.binding;
    const refreshToken = record.tokens.refresh_token;
    if (!binding || !refreshToken) return;
    try {
      let discovery = this.discovery;
      if (!discovery?.authorizationServerMetadata) {
        const info = await discoverOAuthServerInfo(this.deps.url, { fetchFn: this.deps.fetch });
        discovery = { ...info };
      }
      const metadata = discovery.authorizationServerMetadata;
      if (!metadata || !sameIssuer(metadata.issuer, binding.issuer)) return; // the AS moved: the 401 path re-authorizes
      this.discovery = discovery;
      this.resource = binding.resource;
      const client = await this.clientFor(metadata.issuer, { mayRegister: false });
      if (!client) return;
      const tokens = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata,
        clientInformation: client,
        refreshToken,
        resource: binding.resource,
        addClientAuthentication: this.clientAuthentication(),
        ...(this.config?.dpop ? { dpop: await this.dpopSession(false) } : {}),
        fetchFn: this.deps.fetch,
      });
      await this.saveTokens({ ...tokens, issuer: metadata.issuer }, metadata.issuer);
    } catch (error) {
      // Not lost: the 401 that follows says AUTH_REQUIRED, and the sign-in shows as expired.
      if (error instanceof OAuthError && error.code === 'invalid_grant') await this.invalidate('tokens').catch(() => undefined);
    }
  }

  private async revoke(binding: Binding, tokens: StoredOAuthTokens, key: string): Promise<boolean> {
    const endpoint = binding.revocationEndpoint;
    if (!endpoint || browserUrlProblem(endpoint)) return false;
    // No client to revoke as: reported to the caller as not revoked (false), and the tokens are deleted anyway.
    const client = await (this.config?.clientId ? this.clientFor(binding.issuer, { mayRegister: false }) : this.deps.store.client(key)).catch(() => undefined);
    if (!client) return false;
    return revokeTokens({ endpoint, client, tokens, clientAuthentication: this.clientAuthentication(), fetch: this.deps.fetch });
  }
}
