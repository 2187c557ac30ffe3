import { randomBytes } from 'node:crypto';
import type {
  AddClientAuthentication,
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import type { FinishesAuth, TransportAuth } from '../servers/transport-auth';
import { machineGrantFailure, machineGrantRefused, toAuthError } from './auth-failures';
import type { GrantTarget, TokenGrant } from './grants';
import type { ServerAuth } from './server-auth';
import { assertBrowserUrl } from './url-policy';

interface PendingSignIn {
  readonly state: string;
  readonly callback: Promise<URLSearchParams>;
}

/**
 * Harbor's OAuthClientProvider for one transport. The SDK drives discovery, registration, PKCE,
 * token exchange, refresh and RFC 9207 `iss` checks through it; Harbor adds what the SDK leaves
 * to the host: the loopback redirect, `state` generated and checked here, the URL policy before
 * any browser opens, PKCE-S256 required, `resource` always sent, credentials in the keychain, and
 * no sign-in unless one is allowed right now (otherwise the server is AUTH_REQUIRED).
 * Per-transport so the PKCE verifier and `state` of one sign-in never mix with another's.
 *
 * Machine and enterprise grants (grants.ts) have no redirect: the SDK then asks
 * `prepareTokenRequest` for the grant and fetches the token itself whenever the server answers
 * 401, with the client authenticated as configured (private_key_jwt through
 * `addClientAuthentication`) and, with `"dpop": true`, proofs from `dpop()`.
 */
export class OAuthSession implements OAuthClientProvider {
  private expectedState: string | undefined;
  private verifier: string | undefined;
  private pending: PendingSignIn | undefined;
  private completing: Promise<void> | undefined;
  private signInAllowed = true;
  /** The SDK asked for a token request's parameters: its `dpop()` call for that request follows. */
  private tokenRequestNext = false;

  constructor(
    private readonly auth: ServerAuth,
    private readonly grant: TokenGrant,
  ) {}

  get clientMetadataUrl(): string | undefined {
    return this.grant.interactive ? this.auth.clientMetadataUrl : undefined;
  }

  get redirectUrl(): string | undefined {
    return this.grant.interactive ? this.auth.deps.callbacks.redirectUrl : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.auth.config?.scope;
    const method = this.auth.config?.tokenEndpointAuthMethod;
    return {
      client_name: this.auth.deps.clientName,
      redirect_uris: this.grant.interactive ? [this.auth.deps.callbacks.redirectUrl] : [],
      // RFC 8252: a desktop app with a loopback redirect is a native, public client.
      application_type: 'native',
      grant_types: [...this.grant.grantTypes],
      ...(this.grant.interactive ? { response_types: ['code'] } : {}),
      ...(method ? { token_endpoint_auth_method: method } : {}),
      software_id: 'harbor',
      software_version: this.auth.deps.clientVersion,
      ...(scope ? { scope } : {}),
    };
  }

  /** private_key_jwt: the signed client assertion (the SDK then adds no other client authentication). */
  get addClientAuthentication(): AddClientAuthentication | undefined {
    return this.auth.clientAuthentication();
  }

  /** RFC 9449 proofs for this server's token requests and MCP requests when `"dpop": true`. */
  dpop(): Promise<DpopSession | undefined> {
    const forTokenRequest = this.tokenRequestNext;
    this.tokenRequestNext = false;
    return this.auth.dpopSession(forTokenRequest);
  }

  /**
   * The grant's token request (client credentials, a workload or enterprise JWT bearer grant);
   * undefined for a person's sign-in, whose code exchange the SDK builds.
   */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    this.tokenRequestNext = true;
    return this.grant.tokenRequest(scope, () => this.grantTarget());
  }

  private grantTarget(): GrantTarget {
    const discovery = this.auth.discovery;
    const issuer = discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
    if (!issuer) throw new HarborError('AUTH_FAILED', `The authorization server of "${this.auth.server}" is not known yet; connect again.`);
    return { issuer, resource: this.auth.resource };
  }

  /** Whether a browser may open for this transport (the connection's re-authorization budget). */
  allowSignIn(allowed: boolean): void {
    this.signInAllowed = allowed;
  }

  private get canSignIn(): boolean {
    return this.signInAllowed && this.auth.opener !== undefined;
  }

  state(): string {
    // Called by the SDK right before it builds the authorization URL: the last moment to refuse
    // an authorization server without PKCE S256, and where Harbor's own `state` is minted.
    this.auth.assertPkceS256();
    this.expectedState = randomBytes(32).toString('base64url');
    return this.expectedState;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    if (!ctx) return undefined;
    return this.auth.clientFor(ctx.issuer, { mayRegister: this.canSignIn });
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer;
    if (issuer) await this.auth.saveClient(info, issuer);
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (ctx) return this.auth.tokensFor(ctx.issuer);
    // The per-request read for the Authorization header: the latest tokens, refreshed if they
    // are about to expire. A keychain that cannot be read yields no token rather than failing a
    // server that may not need one.
    return this.auth.bearerTokens().catch(() => undefined);
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (!issuer) throw new HarborError('AUTH_FAILED', `The authorization server of "${this.auth.server}" could not be identified; the tokens were not stored.`);
    await this.auth.saveTokens(tokens, issuer);
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const url = assertBrowserUrl(authorizationUrl, this.auth.server);
    const state = url.searchParams.get('state');
    if (!state || state !== this.expectedState) {
      throw new HarborError('AUTH_FAILED', `The sign-in request for "${this.auth.server}" lost its state parameter; Harbor did not open it.`);
    }
    const opener = this.auth.opener;
    // No sign-in allowed now (a background connect, or the budget of this operation is spent):
    // nothing opens, the SDK reports UnauthorizedError and the server shows AUTH_REQUIRED.
    if (!opener || !this.signInAllowed) return;
    const minutes = Math.round(this.auth.deps.callbackTimeoutMs / 60_000);
    const callback = this.auth.deps.callbacks.expect(state, {
      timeoutMs: this.auth.deps.callbackTimeoutMs,
      onTimeout: () =>
        new HarborError(
          'AUTH_REQUIRED',
          `The sign-in to "${this.auth.server}" was not completed within ${minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.round(this.auth.deps.callbackTimeoutMs / 1000)} seconds`}. Run "harbor login ${this.auth.server}" to try again.`,
        ),
    });
    callback.catch(() => undefined); // observed by completeSignIn
    this.pending = { state, callback };
    this.auth.deps.onOpen?.(url);
    try {
      await opener(url);
    } catch (error) {
      this.auth.deps.callbacks.cancel(
        state,
        error instanceof HarborError ? error : new HarborError('AUTH_FAILED', `Could not open the sign-in page for "${this.auth.server}": ${(error as Error).message}`),
      );
    }
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new HarborError('AUTH_FAILED', `No sign-in to "${this.auth.server}" is in progress.`);
    return this.verifier;
  }

  async validateResourceURL(serverUrl: string | URL, resource?: string): Promise<URL> {
    return this.auth.selectResource(serverUrl, resource);
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    // The SDK invalidates and asks again after invalid_client / invalid_grant. A machine grant
    // would only be refused again with the same configuration (and workload identity must not
    // retry): a refusal ends here, with the stored tokens dropped. (Refusals the token request's
    // fetch saw never get this far: auth/fetch.ts throws them as they arrive.)
    if (!this.grant.interactive && (scope === 'client' || scope === 'tokens')) {
      await this.auth.invalidate('tokens');
      throw machineGrantRefused(this.auth.server, this.grant, undefined);
    }
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope !== 'verifier') await this.auth.invalidate(scope);
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.auth.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.auth.discovery;
  }

  /** The connection's view of this session, bound to the transport that will redeem the code. */
  bind(transport: FinishesAuth): TransportAuth {
    return {
      allowSignIn: (allowed) => this.allowSignIn(allowed),
      signInPending: () => this.pending !== undefined,
      completeSignIn: () => this.completeSignIn(transport),
      authFailure: (error) => {
        this.auth.status.failed(error);
        return this.grant.interactive ? toAuthError(error, this.auth.server, () => this.auth.signInRequired()) : machineGrantFailure(error, this.auth.server, this.grant);
      },
    };
  }

  /**
   * Waits for the browser to come back to the loopback listener with this sign-in's `state`,
   * checks it, and lets the SDK validate `iss` and redeem the code on the same transport. Several
   * callers (parallel calls that all hit the 401) share one completion.
   */
  private completeSignIn(transport: FinishesAuth): Promise<void> {
    this.completing ??= (async () => {
      const pending = this.pending;
      if (!pending) throw this.auth.signInRequired();
      try {
        const params = await pending.callback;
        if (params.get('state') !== pending.state) {
          throw new HarborError('AUTH_FAILED', `The sign-in response for "${this.auth.server}" carried the wrong state; Harbor refused it.`);
        }
        await transport.finishAuth(params);
      } catch (error) {
        this.auth.status.failed(error);
        throw toAuthError(error, this.auth.server, () => this.auth.signInRequired()) ?? error;
      } finally {
        this.pending = undefined;
        this.verifier = undefined;
        this.expectedState = undefined;
      }
    })().finally(() => {
      this.completing = undefined;
    });
    return this.completing;
  }
}
