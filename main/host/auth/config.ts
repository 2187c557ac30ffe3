import { z } from 'zod';
import { HarborError } from '../errors';
import { hasSecretRef } from '../secrets/references';

/**
 * A remote server's `"oauth"` entry in the registry, all optional:
 * `{"clientId": "…", "clientSecret": "${secret:NAME}", "scope": "read write",
 *   "clientMetadataUrl": "https://…/client.json", "issuer": "https://as.example"}`.
 * A pre-registered client (clientId) is preferred over a client metadata document, which is
 * preferred over dynamic registration. The secret must be a keychain reference.
 */
export const OAuthServerConfig = z.looseObject({
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  scope: z.string().min(1).optional(),
  clientMetadataUrl: z.url({ protocol: /^https$/, error: 'must be an https URL' }).optional(),
  /** The authorization server a pre-registered client belongs to; a different one is refused. */
  issuer: z.string().min(1).optional(),
});
export type OAuthServerConfig = z.infer<typeof OAuthServerConfig>;

/** The `oauth` entry of a server's configuration, checked; undefined when there is none. */
export function parseOAuthConfig(server: string, value: unknown): OAuthServerConfig | undefined {
  if (value === undefined) return undefined;
  const parsed = OAuthServerConfig.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${['oauth', ...i.path].join('.')}: ${i.message}`).join('; ');
    throw new HarborError('CONFIG_INVALID', `Server "${server}" has an invalid "oauth" entry: ${problems}.`);
  }
  const config = parsed.data;
  if (config.clientSecret !== undefined && !hasSecretRef(config.clientSecret)) {
    throw new HarborError(
      'CONFIG_INVALID',
      `Server "${server}" has a literal "oauth.clientSecret": secrets belong in the keychain. Run "harbor secret set ${server}-client-secret" and use "\${secret:${server}-client-secret}" instead.`,
    );
  }
  if (config.clientSecret !== undefined && config.clientId === undefined) {
    throw new HarborError('CONFIG_INVALID', `Server "${server}" has "oauth.clientSecret" without "oauth.clientId".`);
  }
  return config;
}
