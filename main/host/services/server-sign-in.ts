import type { ServerSummary } from '../../../preload/contract';
import type { BrowserOpener } from '../auth/opener';
import { isMachineGrant, parseOAuthConfig } from '../auth/config';
import type { AuthService } from '../auth/service';
import { HarborError } from '../errors';
import type { RegistryState } from './registry-state';
import type { ServerControl } from './server-control';

/** Signing in to a remote server (OAuth) and out again: `harbor login/logout`, the app's Sign in. */
export class ServerSignIn {
  constructor(
    private readonly servers: ServerControl,
    private readonly auth: AuthService,
    private readonly registry: RegistryState,
  ) {}

  /**
   * Reconnects the server with a sign-in allowed, the page shown with `opener` (else the Host's),
   * and resolves once it is ready; throws AUTH_REQUIRED / AUTH_FAILED (or the server's other
   * error) otherwise. A server that needs no sign-in just connects.
   */
  async login(name: string, options: { opener?: BrowserOpener } = {}): Promise<ServerSummary> {
    const connection = this.servers.connection(name);
    const spec = connection.spec;
    if (spec.transport !== 'http') {
      throw new HarborError('BAD_REQUEST', `"${name}" is a local (stdio) server: only remote servers sign in. Its secrets go in the keychain with "harbor secret set".`);
    }
    // The person named this server to sign in to it: that approves reaching it as configured.
    this.servers.approveLaunch(name);
    await this.auth.signIn(
      name,
      spec.url,
      async () => {
        // One connect, one sign-in budget: whenReady() would connect (and ask) again after a failure.
        await connection.restart();
        const state = connection.state;
        if (state.kind === 'error') throw new HarborError(state.code, state.message, state.stderrTail || undefined);
        if (state.kind !== 'ready') throw new HarborError('CONNECTION_CLOSED', `"${name}" is ${state.kind}.`);
      },
      options.opener,
    );
    return this.servers.get(name);
  }

  /**
   * Whether the app should offer Sign in / Sign out: a person's sign-in applies to a remote server
   * that sends no fixed Authorization header and whose `oauth` entry asks for no machine grant.
   */
  async status(name: string): Promise<{ usesSignIn: boolean; signedIn: boolean }> {
    const config = this.registry.requireValid().servers.get(name);
    if (!config) throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}". Known servers: ${this.servers.names().join(', ') || '(none)'}.`);
    if (!('url' in config) || typeof config.url !== 'string') return { usesSignIn: false, signedIn: false };
    const fixedAuthorization = Object.keys(config.headers ?? {}).some((header) => header.toLowerCase() === 'authorization');
    if (fixedAuthorization || isMachineGrant(parseOAuthConfig(name, config.oauth))) return { usesSignIn: false, signedIn: false };
    let url = config.url;
    try {
      const spec = this.servers.connection(name).spec;
      if (spec.transport === 'http') url = spec.url;
    } catch {
      // Disabled or misconfigured: its sign-in is kept under the address as written.
    }
    // Its status (ServerSummary.signIn) is known from here on, connected or not.
    await this.auth.look(name, url);
    return { usesSignIn: true, signedIn: await this.auth.hasSignIn(name, url) };
  }

  /** Forgets a remote server's tokens and client registration (revoked at the authorization server when possible); a running connection stops. */
  async logout(name: string): Promise<{ removed: boolean; revoked: boolean }> {
    const config = this.registry.requireValid().servers.get(name);
    if (!config) throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}". Known servers: ${this.servers.names().join(', ') || '(none)'}.`);
    if (!('url' in config) || typeof config.url !== 'string') {
      throw new HarborError('BAD_REQUEST', `"${name}" is a local (stdio) server: it has no sign-in to forget.`);
    }
    // A disabled server can still be signed out of; a running one stops using the forgotten tokens.
    const connection = config.enabled === false ? undefined : this.servers.connection(name);
    const url = connection?.spec.transport === 'http' ? connection.spec.url : config.url;
    const result = await this.auth.signOut(name, url);
    if (connection && connection.state.kind !== 'stopped') await connection.stop();
    return result;
  }
}
