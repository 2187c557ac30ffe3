import { InsecureTokenEndpointError, discoverAndRequestJwtAuthGrant, requestJwtAuthorizationGrant, type FetchLike } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import type { OAuthConfig } from '../registry/oauth-config';
import { findSecretRefs } from '../secrets/references';
import { recordingRefusals } from './oauth-error-code';

export type EnterpriseConfig = NonNullable<OAuthConfig['enterprise']>;

export interface IdJagRequest {
  readonly server: string;
  readonly config: EnterpriseConfig;
  readonly resolveSecret: (where: string, value: string) => Promise<string>;
  readonly fetch: FetchLike;
  /** The MCP server's authorization server: the ID-JAG's audience. */
  readonly issuer: string;
  /** The MCP server (RFC 8707 resource): what the ID-JAG grants access to. */
  readonly resource: string;
  readonly scope: string | undefined;
}

/**
 * Enterprise-managed authorization, first leg: the person's ID token (from the keychain) is
 * exchanged at the company's identity provider for an ID-JAG — a JWT authorization grant for this
 * one server (RFC 8693 token exchange, `requested_token_type` id-jag). The SDK sends the request;
 * Harbor supplies the configuration and says what went wrong without quoting the provider.
 */
export async function requestIdJag(request: IdJagRequest): Promise<string> {
  const { config, server } = request;
  const idToken = await request.resolveSecret('oauth.enterprise.idToken', config.idToken);
  const clientSecret = config.idpClientSecret ? await request.resolveSecret('oauth.enterprise.idpClientSecret', config.idpClientSecret) : undefined;
  const idp = recordingRefusals(request.fetch);
  const common = {
    audience: request.issuer,
    resource: request.resource,
    idToken,
    clientId: config.idpClientId,
    ...(clientSecret ? { clientSecret } : {}),
    ...(request.scope ? { scope: request.scope } : {}),
    fetchFn: idp.fetch,
  };
  try {
    const result = config.idpTokenEndpoint
      ? await requestJwtAuthorizationGrant({ ...common, tokenEndpoint: config.idpTokenEndpoint })
      : await discoverAndRequestJwtAuthGrant({ ...common, idpUrl: config.idpIssuer! });
    return result.jwtAuthGrant;
  } catch (error) {
    const where = config.idpTokenEndpoint ?? config.idpIssuer!;
    if (error instanceof InsecureTokenEndpointError) {
      throw new HarborError('AUTH_FAILED', `The identity provider of "${server}" has a token endpoint that is not https (${where}); Harbor will not send the ID token to it.`, undefined, { cause: error });
    }
    const code = idp.lastRefusal();
    const tokenName = findSecretRefs(config.idToken)[0] ?? 'NAME';
    if (code) {
      throw new HarborError(
        'AUTH_FAILED',
        `The identity provider of "${server}" (${where}) refused to exchange the ID token for a grant to this server (${code}). ID tokens expire: store a fresh one with "harbor secret set ${tokenName}", and check "oauth.enterprise" in the registry.`,
        undefined,
        { cause: error },
      );
    }
    throw new HarborError(
      'AUTH_FAILED',
      `Harbor could not get an enterprise grant for "${server}" from its identity provider (${where}). Check that "oauth.enterprise" names the provider's token endpoint or issuer, and that it is reachable.`,
      undefined,
      { cause: error },
    );
  }
}
