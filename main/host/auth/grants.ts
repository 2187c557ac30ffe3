import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { FetchLike } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import type { OAuthGrant } from '../registry/oauth-config';
import { grantOf, type OAuthServerConfig } from './config';
import { requestIdJag } from './enterprise-grant';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Where the token a grant asks for will be used: the authorization server and the MCP server. */
export interface GrantTarget {
  /** The authorization server's issuer (the audience of assertions). */
  readonly issuer: string;
  /** The MCP server's RFC 8707 resource indicator. */
  readonly resource: string;
}

/** What one grant type adds to Harbor's OAuth provider. */
export interface TokenGrant {
  readonly grant: OAuthGrant;
  /** A person signs in in the browser (authorization code); otherwise Harbor gets tokens itself. */
  readonly interactive: boolean;
  /** The grant types Harbor uses as this client (its client metadata). */
  readonly grantTypes: readonly string[];
  /** How messages name what Harbor presented ("client credentials", …). */
  readonly presented: string;
  /** What to check in the configuration when the authorization server refuses it. */
  readonly check: string;
  /** The token request's grant parameters; undefined: the SDK's authorization code exchange. */
  tokenRequest(scope: string | undefined, target: () => GrantTarget): Promise<URLSearchParams | undefined>;
}

export interface GrantDeps {
  readonly server: string;
  /** Resolves a `${secret:…}` reference of the `oauth` entry (named by `where`, e.g. "oauth.clientSecret"). */
  readonly resolveSecret: (where: string, value: string) => Promise<string>;
  /** Learns a credential read from elsewhere (a token file) so echoes of it are masked. */
  readonly redact: (value: string) => void;
  /** For requests a grant makes itself (the identity provider's token exchange). */
  readonly fetch: FetchLike;
}

/** The grant a server's `oauth` entry asks for. */
export function tokenGrant(config: OAuthServerConfig | undefined, deps: GrantDeps): TokenGrant {
  const withScope = (params: Record<string, string>, scope: string | undefined) => new URLSearchParams({ ...params, ...(scope ? { scope } : {}) });
  switch (grantOf(config)) {
    case 'client_credentials':
      return {
        grant: 'client_credentials',
        interactive: false,
        grantTypes: ['client_credentials'],
        presented: 'client credentials',
        check: 'Check "oauth.clientId" and the client secret or private key it names in the keychain',
        tokenRequest: async (scope) => withScope({ grant_type: 'client_credentials' }, scope),
      };
    case 'workload_identity':
      return {
        grant: 'workload_identity',
        interactive: false,
        grantTypes: [JWT_BEARER],
        presented: 'workload identity token',
        check: 'Check "oauth.clientId", and that the workload token is issued for this authorization server (its audience) and has not expired',
        tokenRequest: async (scope) => withScope({ grant_type: JWT_BEARER, assertion: await workloadToken(config!, deps) }, scope),
      };
    case 'enterprise':
      return {
        grant: 'enterprise',
        interactive: false,
        grantTypes: [JWT_BEARER],
        presented: 'enterprise ID-JAG grant',
        check: 'Check "oauth.clientId" and "oauth.clientSecret", and that the identity provider trusts this authorization server',
        tokenRequest: async (scope, target) => {
          const { issuer, resource } = target();
          const assertion = await requestIdJag({ server: deps.server, config: config!.enterprise!, resolveSecret: deps.resolveSecret, fetch: deps.fetch, issuer, resource, scope });
          return withScope({ grant_type: JWT_BEARER, assertion }, scope);
        },
      };
    case 'authorization_code':
      return {
        grant: 'authorization_code',
        interactive: true,
        grantTypes: ['authorization_code', 'refresh_token'],
        presented: 'sign-in',
        check: 'Sign in again',
        tokenRequest: async () => undefined,
      };
  }
}

/**
 * Workload identity federation: the JWT the platform issued to this workload (a projected
 * service-account token, a CI job's OIDC token), read fresh for every token request because
 * platforms rotate them.
 */
async function workloadToken(config: OAuthServerConfig, deps: GrantDeps): Promise<string> {
  const source = config.workloadIdentity!;
  if (source.token) return (await deps.resolveSecret('oauth.workloadIdentity.token', source.token)).trim();
  const path = source.tokenFile!.startsWith('~/') ? join(homedir(), source.tokenFile!.slice(2)) : source.tokenFile!;
  let token: string;
  try {
    token = (await readFile(path, 'utf8')).trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new HarborError(
      'AUTH_FAILED',
      `Harbor could not read the workload identity token of "${deps.server}" from ${path} ("oauth.workloadIdentity.tokenFile", ${code}). Check that the platform writes the token there and that Harbor may read it.`,
    );
  }
  if (!token) throw new HarborError('AUTH_FAILED', `The workload identity token file of "${deps.server}" (${path}) is empty. Check that the platform writes the token there.`);
  deps.redact(token);
  return token;
}
