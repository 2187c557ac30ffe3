import type { FetchLike } from '@modelcontextprotocol/client';
import type { SignInStatus } from '../../../preload/contract';
import { HarborError } from '../errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { Redactor } from '../secrets/redactor';
import { resolveSecretString } from '../secrets/references';
import type { SecretStore } from '../secrets/store';
import type { TransportAuthParts } from '../servers/transport-auth';
import { machineGrantRefused } from './auth-failures';
import { LoopbackCallbackServer } from './callback-server';
import { parseOAuthConfig } from './config';
import { OAuthCredentialStore, oauthScope } from './credential-store';
import { authFetch } from './fetch';
import { tokenGrant } from './grants';
import type { BrowserOpener } from './opener';
import { ServerAuth } from './server-auth';
import { OAuthSession } from './session';

export interface AuthServiceOptions {
  /** Where tokens and client registrations live (the OS keychain in the app and CLI). */
  readonly secrets: SecretStore;
  /** Learns every token and client secret so echoes of them are masked. */
  readonly redactor?: Redactor;
  readonly clientName?: string;
  readonly clientVersion?: string;
  /** CIMD: an https URL where Harbor's client metadata document is hosted. Default: none (DCR). */
  readonly clientMetadataUrl?: string;
  /**
   * `explicit` (default): a browser opens only for `signIn` (`harbor login`, the app's Sign in);
   * elsewhere a server that needs sign-in shows AUTH_REQUIRED. `automatic`: any connect or call
   * may open one with `opener` (the conformance adapter; headless tests).
   */
  readonly signIn?: 'explicit' | 'automatic';
  /** How sign-in pages are shown when `signIn` is called without an opener of its own (Electron: shell.openExternal). */
  readonly opener?: BrowserOpener;
  /** How long a sign-in waits for the browser to come back (default 5 minutes). */
  readonly callbackTimeoutMs?: number;
  /** The raw `oauth` entry of a server's configuration. */
  readonly serverConfig?: (server: string) => unknown;
  /** Every sign-in page opened (the app emits `auth.open` so the URL can be shown too). */
  readonly onOpen?: (server: string, url: URL) => void;
  readonly fetch?: FetchLike;
  readonly now?: () => number;
}

/**
 * OAuth 2.1 for remote servers, owned by the Host: one ServerAuth per configured server (keyed by
 * name and URL), a shared loopback callback listener, and the sign-in/sign-out entry points.
 */
export class AuthService implements Disposable {
  readonly callbacks = new LoopbackCallbackServer();
  private readonly store: OAuthCredentialStore;
  private readonly servers = new Map<string, ServerAuth>();
  /** Each server's sign-in as last configured (its name, URL and oauth block), for its summary. */
  private readonly latest = new Map<string, ServerAuth>();
  private readonly fetch: FetchLike;
  private readonly redactor: Redactor;

  constructor(private readonly options: AuthServiceOptions) {
    trackDisposable(this);
    this.redactor = options.redactor ?? new Redactor();
    this.store = new OAuthCredentialStore(options.secrets, this.redactor);
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /**
   * The OAuth parts of a new transport to `url`, or undefined when Harbor does no OAuth for it
   * (its configuration sends a static Authorization header). Each call re-reads the server's
   * credentials: a new transport is a new connection attempt.
   */
  forTransport(server: string, url: string, headers: Readonly<Record<string, string>> = {}): TransportAuthParts | undefined {
    if (Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    const auth = this.serverAuth(server, url);
    auth.reload();
    const grant = tokenGrant(auth.config, {
      server,
      resolveSecret: (where, value) => auth.deps.resolveSecret(where, value),
      redact: (value) => this.redactor.add(value),
      fetch: this.fetch,
    });
    const session = new OAuthSession(auth, grant);
    const fetchWithHooks = authFetch(this.fetch, {
      // The listener starts once; only then is the registered port worth a keychain read. A
      // machine grant has no redirect: no listener.
      beforeAuthorization: async () => {
        if (grant.interactive && !this.callbacks.listening) await this.callbacks.start(await auth.preferredRedirectPort());
      },
      tokenRejected: () => auth.invalidate('discovery'),
      ...(grant.interactive ? {} : { tokenRequestRefused: (code: string | undefined) => machineGrantRefused(server, grant, code) }),
    });
    return { provider: session, fetch: fetchWithHooks, bind: (transport) => session.bind(transport) };
  }

  /**
   * Runs `work` (typically: reconnect the server and wait until it is ready) with sign-in allowed
   * for this server, pages shown with `opener` (else the service's own).
   */
  async signIn<T>(server: string, url: string, work: () => Promise<T>, opener?: BrowserOpener): Promise<T> {
    const chosen = opener ?? this.options.opener;
    if (!chosen) throw new HarborError('AUTH_FAILED', `Harbor has no way to show a sign-in page here. Use "harbor login ${server}" in a terminal.`);
    const auth = this.serverAuth(server, url);
    const previous = auth.opener;
    auth.opener = chosen;
    try {
      return await work();
    } finally {
      auth.opener = previous;
    }
  }

  /**
   * Whether Harbor holds a person's sign-in for this server at this address (tokens, or an entry
   * too damaged to read, which only signing out clears). An unreachable keychain counts as none.
   */
  async hasSignIn(server: string, url: string): Promise<boolean> {
    try {
      const saved = await this.store.load(server, url, oauthScope(this.options.serverConfig?.(server)));
      return saved.tokens !== undefined || saved.damaged !== undefined;
    } catch {
      return false;
    }
  }

  /**
   * A remote server's sign-in for its summary (ServerSummary.signIn); undefined until Harbor has
   * looked for one (a first connection, a sign-in) or when Harbor does none for it.
   */
  status(server: string): SignInStatus | undefined {
    return this.latest.get(server)?.status.view();
  }

  /** Reads a server's saved sign-in from the keychain when nothing has yet, so its status is known before it connects. */
  async look(server: string, url: string): Promise<void> {
    const auth = this.serverAuth(server, url);
    if (auth.status.known) return;
    auth.reload();
    await auth.loaded();
  }

  /** Forgets a server's tokens and client registration (revoking at the authorization server first when it can). */
  async signOut(server: string, url: string): Promise<{ removed: boolean; revoked: boolean }> {
    return this.serverAuth(server, url).forget();
  }

  private serverAuth(server: string, url: string): ServerAuth {
    const raw = this.options.serverConfig?.(server);
    // A sign-in belongs to the oauth block it was made under: a replaced block starts from none.
    const oauth = oauthScope(raw);
    const key = `${server}\n${url}\n${oauth}`;
    let auth = this.servers.get(key);
    if (!auth) {
      const { secrets } = this.options;
      const redactor = this.redactor;
      auth = new ServerAuth({
        server,
        url,
        oauth,
        store: this.store,
        callbacks: this.callbacks,
        clientMetadataUrl: this.options.clientMetadataUrl,
        clientName: this.options.clientName ?? 'Harbor',
        clientVersion: this.options.clientVersion ?? '0.0.0',
        resolveSecret: (where, value) =>
          resolveSecretString(`Server "${server}"`, where, value, { store: secrets, redactor }),
        remember: (secret) => redactor.add(secret),
        callbackTimeoutMs: this.options.callbackTimeoutMs ?? 5 * 60_000,
        fetch: this.fetch,
        now: this.options.now ?? Date.now,
        ...(this.options.onOpen ? { onOpen: (u: URL) => this.options.onOpen!(server, u) } : {}),
      });
      if (this.options.signIn === 'automatic') auth.opener = this.options.opener;
      this.servers.set(key, auth);
    }
    auth.config = parseOAuthConfig(server, raw);
    this.latest.set(server, auth);
    return auth;
  }

  dispose(): Promise<void> {
    markAsDisposed(this);
    this.servers.clear();
    this.latest.clear();
    return this.callbacks.dispose();
  }
}
