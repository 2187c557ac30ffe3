import { HarborError } from '../errors';
import { OAuthConfig, type OAuthGrant } from '../registry/oauth-config';

/**
 * A remote server's `"oauth"` entry as auth uses it. The registry schema (registry/oauth-config.ts)
 * already checked it when the file was loaded, with each problem at its JSON path; this parse is
 * for entries that did not come through the registry (the conformance adapter, tests).
 */
export type OAuthServerConfig = OAuthConfig;

/** The `oauth` entry of a server's configuration, checked; undefined when there is none. */
export function parseOAuthConfig(server: string, value: unknown): OAuthServerConfig | undefined {
  if (value === undefined) return undefined;
  const parsed = OAuthConfig.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${['oauth', ...i.path].join('.')}: ${i.message}`).join('; ');
    throw new HarborError('CONFIG_INVALID', `Server "${server}" has an invalid "oauth" entry: ${problems}.`);
  }
  return parsed.data;
}

/** The grant a configuration asks for (a person's browser sign-in unless it says otherwise). */
export function grantOf(config: OAuthServerConfig | undefined): OAuthGrant {
  return config?.grant ?? 'authorization_code';
}

/** Grants that need no person: a token is fetched whenever the server asks for one. */
export function isMachineGrant(config: OAuthServerConfig | undefined): boolean {
  return grantOf(config) !== 'authorization_code';
}
