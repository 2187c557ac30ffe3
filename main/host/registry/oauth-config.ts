import { z } from 'zod';

/**
 * A remote server's `"oauth"` entry: how Harbor gets a token for it. Everything is optional; with
 * no entry a person signs in in the browser (authorization code, PKCE) as a dynamically registered
 * or CIMD client. Machine and enterprise sign-in choose another `grant`:
 *
 * - `"client_credentials"`: Harbor is the client itself (no person), authenticated with
 *   `clientSecret` (client_secret_basic / client_secret_post) or `privateKey` (private_key_jwt);
 * - `"enterprise"`: enterprise-managed authorization — the person's ID token from the company's
 *   identity provider is exchanged there for an ID-JAG (RFC 8693), which the server's
 *   authorization server accepts as a JWT bearer grant (RFC 7523);
 * - `"workload_identity"`: a workload's platform-issued JWT (a token file, or a keychain secret)
 *   is the JWT bearer grant.
 *
 * `"dpop": true` binds the tokens of any grant to a key pair Harbor keeps per server (RFC 9449).
 * Keys, secrets and tokens are never written here: those fields take `${secret:NAME}` references to
 * the OS keychain.
 */

const SECRET_REFERENCE = /\$\{secret:[^}]*\}/;
const KEYCHAIN_ONLY = 'must be a keychain reference such as "${secret:NAME}" (set it with "harbor secret set NAME"): keys, secrets and tokens never go in the configuration file';

/** A value that must come from the keychain. The reference's name is checked where it is resolved. */
const SecretReference = z.string().min(1).regex(SECRET_REFERENCE, KEYCHAIN_ONLY);

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const OAUTH_GRANTS = ['authorization_code', 'client_credentials', 'enterprise', 'workload_identity'] as const;
export type OAuthGrant = (typeof OAUTH_GRANTS)[number];

export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/** JWS algorithms a private_key_jwt assertion can be signed with (asymmetric only). */
export const CLIENT_ASSERTION_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'] as const;

const EnterpriseConfig = z.looseObject({
  /** The identity provider's issuer; its token endpoint is discovered (RFC 8414 / OpenID). */
  idpIssuer: HttpUrl.optional(),
  /** …or its token endpoint, given directly. */
  idpTokenEndpoint: HttpUrl.optional(),
  /** Harbor's client id at the identity provider. */
  idpClientId: z.string().min(1),
  idpClientSecret: SecretReference.optional(),
  /** The person's ID token from the identity provider. */
  idToken: SecretReference,
});

const WorkloadIdentityConfig = z.looseObject({
  /** A file the platform keeps a fresh workload JWT in (read for every token request). */
  tokenFile: z
    .string()
    .min(1)
    .refine((p) => p.startsWith('/') || p.startsWith('~/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path (or start with "~/")')
    .optional(),
  /** …or the workload JWT itself, from the keychain. */
  token: SecretReference.optional(),
});

export const OAuthConfig = z
  .looseObject({
    grant: z.enum(OAUTH_GRANTS).optional(),
    clientId: z.string().min(1).optional(),
    clientSecret: SecretReference.optional(),
    /** How Harbor authenticates at the token endpoint (default: from what is configured). */
    tokenEndpointAuthMethod: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).optional(),
    /** private_key_jwt: a PEM (PKCS#8, SEC1 or PKCS#1) or JWK private key, from the keychain. */
    privateKey: SecretReference.optional(),
    /** private_key_jwt: the assertion's algorithm (default: the one the key's type implies). */
    signingAlgorithm: z.enum(CLIENT_ASSERTION_ALGORITHMS).optional(),
    scope: z.string().min(1).optional(),
    clientMetadataUrl: z.url({ protocol: /^https$/, error: 'must be an https URL' }).optional(),
    /** The authorization server a pre-registered client belongs to; a different one is refused. */
    issuer: z.string().min(1).optional(),
    /** Sender-constrained tokens (RFC 9449) with a key pair Harbor keeps per server in the keychain. */
    dpop: z.boolean().optional(),
    enterprise: EnterpriseConfig.optional(),
    workloadIdentity: WorkloadIdentityConfig.optional(),
  })
  .superRefine((config, ctx) => {
    const problem = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const grant = config.grant ?? 'authorization_code';
    const method = effectiveAuthMethod(config);
    const quoted = `"grant": "${grant}"`;

    if (config.clientSecret !== undefined && config.clientId === undefined) problem(['clientId'], 'is required with "clientSecret"');
    if (config.privateKey !== undefined && config.clientId === undefined) problem(['clientId'], 'is required with "privateKey"');
    if (method === 'private_key_jwt' && config.privateKey === undefined) problem(['privateKey'], 'is required for "tokenEndpointAuthMethod": "private_key_jwt"');
    if (config.privateKey !== undefined && method !== 'private_key_jwt') {
      problem(['tokenEndpointAuthMethod'], `a "privateKey" is only used with "private_key_jwt", not "${method}"`);
    }
    if ((method === 'client_secret_basic' || method === 'client_secret_post') && config.clientSecret === undefined) {
      problem(['clientSecret'], `is required for "tokenEndpointAuthMethod": "${method}"`);
    }
    if (method === 'none' && config.clientSecret !== undefined) problem(['clientSecret'], 'is not sent with "tokenEndpointAuthMethod": "none": remove one of them');
    if (config.signingAlgorithm !== undefined && method !== 'private_key_jwt') problem(['signingAlgorithm'], 'is only used with "private_key_jwt"');
    if (config.clientMetadataUrl !== undefined && grant !== 'authorization_code') problem(['clientMetadataUrl'], `is only used when a person signs in (not with ${quoted})`);
    if (config.enterprise !== undefined && grant !== 'enterprise') problem(['enterprise'], `is only used with "grant": "enterprise" (this entry has ${quoted})`);
    if (config.workloadIdentity !== undefined && grant !== 'workload_identity') {
      problem(['workloadIdentity'], `is only used with "grant": "workload_identity" (this entry has ${quoted})`);
    }

    if (grant !== 'authorization_code' && config.clientId === undefined) problem(['clientId'], `is required with ${quoted}: the client registered for Harbor at the authorization server`);
    if (grant === 'client_credentials' && method === 'none') {
      problem(['clientSecret'], `${quoted} needs "clientSecret" or "privateKey": the client authenticates itself`);
    }
    if (grant === 'enterprise') {
      const e = config.enterprise;
      if (!e) problem(['enterprise'], `is required with ${quoted}: {"idpTokenEndpoint" or "idpIssuer", "idpClientId", "idToken"}`);
      else if ((e.idpIssuer === undefined) === (e.idpTokenEndpoint === undefined)) problem(['enterprise'], 'needs exactly one of "idpIssuer" and "idpTokenEndpoint"');
    }
    if (grant === 'workload_identity') {
      const w = config.workloadIdentity;
      if (!w) problem(['workloadIdentity'], `is required with ${quoted}: {"tokenFile": "/path"} or {"token": "\${secret:NAME}"}`);
      else if ((w.tokenFile === undefined) === (w.token === undefined)) problem(['workloadIdentity'], 'needs exactly one of "tokenFile" and "token"');
    }
  });
export type OAuthConfig = z.infer<typeof OAuthConfig>;

/**
 * How Harbor authenticates at the token endpoint: the configured method, else what the entry
 * holds (a private key, a secret), else none (a public client).
 */
export function effectiveAuthMethod(config: Pick<OAuthConfig, 'tokenEndpointAuthMethod' | 'privateKey' | 'clientSecret'>): TokenEndpointAuthMethod {
  if (config.tokenEndpointAuthMethod) return config.tokenEndpointAuthMethod;
  if (config.privateKey !== undefined) return 'private_key_jwt';
  if (config.clientSecret !== undefined) return 'client_secret_basic';
  return 'none';
}
