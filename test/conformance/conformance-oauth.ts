// The registry `oauth` entry a person would write for each auth scenario of the conformance suite,
// and the keychain values it refers to (what `harbor secret set` would have stored). The entry is
// checked by the registry's own schema, exactly as when Harbor loads harbor.json, so a scenario
// runs only with a configuration Harbor would accept from a person.
import { formatIssues } from '../../main/host/registry/store';
import { parseRegistryFile } from '../../main/host/registry/schema';

/** What the auth scenarios hand the client in MCP_CONFORMANCE_CONTEXT. */
export interface OAuthScenarioContext {
  /** Pre-registration, client credentials, enterprise, workload identity: Harbor's client id. */
  readonly client_id?: string;
  readonly client_secret?: string;
  /** auth/client-credentials-jwt: the client's private key (PKCS#8 PEM) and its algorithm. */
  readonly private_key_pem?: string;
  readonly signing_algorithm?: string;
  /** auth/enterprise-managed-authorization: the enterprise identity provider and the person's ID token. */
  readonly idp_client_id?: string;
  readonly idp_id_token?: string;
  readonly idp_issuer?: string;
  readonly idp_token_endpoint?: string;
  /** auth/wif-jwt-bearer: the workload's platform-issued JWT (the others are for negative clients). */
  readonly valid_jwt?: string;
}

export interface ConformanceOAuth {
  /** The `oauth` entry, as the registry schema parsed it; undefined: a person's plain sign-in. */
  readonly oauth: unknown;
  /** Keychain entries by name. */
  readonly secrets: Record<string, string>;
}

const ref = (name: string) => `\${secret:${name}}`;

export function conformanceOAuth(scenario: string, url: string, context: OAuthScenarioContext): ConformanceOAuth {
  const { entry, secrets } = entryFor(scenario, context);
  if (!entry) return { oauth: undefined, secrets };
  const parsed = parseRegistryFile({ mcpServers: { conformance: { url, oauth: entry } } });
  if (!parsed.success) throw new Error(`the registry refuses the oauth entry for ${scenario}:\n${formatIssues(parsed.error.issues).join('\n')}`);
  return { oauth: (parsed.data.mcpServers!.conformance as { oauth?: unknown }).oauth, secrets };
}

function entryFor(scenario: string, c: OAuthScenarioContext): { entry?: Record<string, unknown>; secrets: Record<string, string> } {
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return {
        entry: { grant: 'client_credentials', clientId: c.client_id, clientSecret: ref('ci-client-secret'), tokenEndpointAuthMethod: 'client_secret_basic' },
        secrets: { 'ci-client-secret': c.client_secret ?? '' },
      };
    case 'auth/client-credentials-jwt':
      return {
        entry: {
          grant: 'client_credentials',
          clientId: c.client_id,
          tokenEndpointAuthMethod: 'private_key_jwt',
          privateKey: ref('ci-signing-key'),
          ...(c.signing_algorithm ? { signingAlgorithm: c.signing_algorithm } : {}),
        },
        secrets: { 'ci-signing-key': c.private_key_pem ?? '' },
      };
    case 'auth/enterprise-managed-authorization':
      return {
        entry: {
          grant: 'enterprise',
          clientId: c.client_id,
          clientSecret: ref('mcp-client-secret'),
          enterprise: { idpTokenEndpoint: c.idp_token_endpoint, idpClientId: c.idp_client_id, idToken: ref('corp-id-token') },
        },
        secrets: { 'mcp-client-secret': c.client_secret ?? '', 'corp-id-token': c.idp_id_token ?? '' },
      };
    case 'auth/wif-jwt-bearer':
      return {
        entry: { grant: 'workload_identity', clientId: c.client_id, workloadIdentity: { token: ref('workload-token') } },
        secrets: { 'workload-token': c.valid_jwt ?? '' },
      };
    case 'auth/dpop':
    case 'auth/dpop-nonce':
      return { entry: { dpop: true }, secrets: {} };
    default:
      // auth/pre-registration: a client registered for Harbor beforehand.
      if (!c.client_id) return { secrets: {} };
      return {
        entry: { clientId: c.client_id, ...(c.client_secret ? { clientSecret: ref('conformance-client-secret') } : {}) },
        secrets: c.client_secret ? { 'conformance-client-secret': c.client_secret } : {},
      };
  }
}
