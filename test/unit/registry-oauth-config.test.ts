// The registry's `oauth` entry: every problem is a registry problem at its JSON path, found when
// the file is loaded (parseRegistryText is what RegistryStore.load runs).
import { describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { parseRegistryText } from '../../main/host/registry/store';

/** The problems the registry reports for one remote server with this `oauth` entry ([] when it loads). */
function problems(oauth: unknown): string[] {
  const text = JSON.stringify({ mcpServers: { ci: { url: 'https://mcp.example/mcp', oauth } } });
  try {
    parseRegistryText(text, 'harbor.json');
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(HarborError);
    expect((error as HarborError).code).toBe('CONFIG_INVALID');
    return (error as HarborError).message.split('\n').filter((l) => l.startsWith('  ')).map((l) => l.trim());
  }
}

describe('registry "oauth" entries', () => {
  it('accepts the README examples of each grant', () => {
    expect(problems({ grant: 'client_credentials', clientId: 'harbor-ci', clientSecret: '${secret:ci-client-secret}' })).toEqual([]);
    expect(problems({ grant: 'client_credentials', clientId: 'harbor-ci', tokenEndpointAuthMethod: 'private_key_jwt', privateKey: '${secret:ci-signing-key}', signingAlgorithm: 'ES256' })).toEqual([]);
    expect(
      problems({
        grant: 'enterprise',
        clientId: 'harbor',
        clientSecret: '${secret:mcp-client-secret}',
        enterprise: { idpIssuer: 'https://login.example.com', idpClientId: 'harbor-desktop', idToken: '${secret:corp-id-token}' },
      }),
    ).toEqual([]);
    expect(problems({ grant: 'workload_identity', clientId: 'build-agent', workloadIdentity: { tokenFile: '/var/run/secrets/tokens/mcp' } })).toEqual([]);
    expect(problems({ grant: 'workload_identity', clientId: 'build-agent', workloadIdentity: { token: '${secret:workload-token}' } })).toEqual([]);
    expect(problems({ dpop: true })).toEqual([]);
    expect(problems({ clientId: 'pre', clientSecret: '${secret:pre}', scope: 'read', issuer: 'https://as.example' })).toEqual([]);
  });

  it('private_key_jwt without a key, and a key with another method, name the field to fix', () => {
    expect(problems({ grant: 'client_credentials', clientId: 'harbor-ci', tokenEndpointAuthMethod: 'private_key_jwt' })).toEqual([
      'mcpServers.ci.oauth.privateKey: is required for "tokenEndpointAuthMethod": "private_key_jwt"',
    ]);
    expect(problems({ grant: 'client_credentials', clientId: 'c', privateKey: '${secret:k}', tokenEndpointAuthMethod: 'client_secret_basic', clientSecret: '${secret:s}' })).toEqual([
      'mcpServers.ci.oauth.tokenEndpointAuthMethod: a "privateKey" is only used with "private_key_jwt", not "client_secret_basic"',
    ]);
    expect(problems({ grant: 'client_credentials', clientId: 'c', clientSecret: '${secret:s}', signingAlgorithm: 'ES256' })).toEqual([
      'mcpServers.ci.oauth.signingAlgorithm: is only used with "private_key_jwt"',
    ]);
  });

  it('keys, secrets and tokens must be keychain references, never literal values', () => {
    const lines = problems({
      grant: 'enterprise',
      clientId: 'c',
      clientSecret: 'hunter2',
      enterprise: { idpTokenEndpoint: 'https://idp.example/token', idpClientId: 'i', idToken: 'eyJhbGciOi' },
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^mcpServers\.ci\.oauth\.clientSecret: must be a keychain reference such as "\$\{secret:NAME\}"/);
    expect(lines[1]).toMatch(/^mcpServers\.ci\.oauth\.enterprise\.idToken: must be a keychain reference/);
    // The literal values themselves are never repeated in the message.
    expect(lines.join('\n')).not.toContain('hunter2');
    expect(lines.join('\n')).not.toContain('eyJhbGciOi');
    expect(problems({ grant: 'client_credentials', clientId: 'c', privateKey: '-----BEGIN PRIVATE KEY-----' })[0]).toMatch(/^mcpServers\.ci\.oauth\.privateKey: must be a keychain reference/);
  });

  it('each grant says what it needs', () => {
    expect(problems({ grant: 'client_credentials', clientId: 'c' })).toEqual([
      'mcpServers.ci.oauth.clientSecret: "grant": "client_credentials" needs "clientSecret" or "privateKey": the client authenticates itself',
    ]);
    expect(problems({ grant: 'client_credentials', clientSecret: '${secret:s}' })).toContain('mcpServers.ci.oauth.clientId: is required with "clientSecret"');
    expect(problems({ grant: 'enterprise', clientId: 'c' })).toEqual([
      'mcpServers.ci.oauth.enterprise: is required with "grant": "enterprise": {"idpTokenEndpoint" or "idpIssuer", "idpClientId", "idToken"}',
    ]);
    expect(problems({ grant: 'enterprise', clientId: 'c', enterprise: { idpClientId: 'i', idToken: '${secret:t}' } })).toEqual([
      'mcpServers.ci.oauth.enterprise: needs exactly one of "idpIssuer" and "idpTokenEndpoint"',
    ]);
    expect(problems({ grant: 'enterprise', clientId: 'c', enterprise: { idpIssuer: 'https://idp.example', idToken: '${secret:t}' } })).toEqual([
      'mcpServers.ci.oauth.enterprise.idpClientId: is required',
    ]);
    expect(problems({ grant: 'workload_identity', clientId: 'c', workloadIdentity: { tokenFile: '/t', token: '${secret:t}' } })).toEqual([
      'mcpServers.ci.oauth.workloadIdentity: needs exactly one of "tokenFile" and "token"',
    ]);
    expect(problems({ grant: 'workload_identity', clientId: 'c', workloadIdentity: { tokenFile: 'relative/token' } })).toEqual([
      'mcpServers.ci.oauth.workloadIdentity.tokenFile: must be an absolute path (or start with "~/")',
    ]);
    expect(problems({ grant: 'workload_identity', workloadIdentity: { tokenFile: '/t' } })).toEqual([
      'mcpServers.ci.oauth.clientId: is required with "grant": "workload_identity": the client registered for Harbor at the authorization server',
    ]);
  });

  it('settings that belong to another grant are pointed out', () => {
    expect(problems({ clientId: 'c', clientSecret: '${secret:s}', workloadIdentity: { tokenFile: '/t' } })).toEqual([
      'mcpServers.ci.oauth.workloadIdentity: is only used with "grant": "workload_identity" (this entry has "grant": "authorization_code")',
    ]);
    expect(problems({ grant: 'client_credentials', clientId: 'c', clientSecret: '${secret:s}', clientMetadataUrl: 'https://harbor.example/client.json' })).toEqual([
      'mcpServers.ci.oauth.clientMetadataUrl: is only used when a person signs in (not with "grant": "client_credentials")',
    ]);
    expect(problems({ grant: 'password' })[0]).toMatch(/^mcpServers\.ci\.oauth\.grant: expected "authorization_code" or "client_credentials" or "enterprise" or "workload_identity"/);
    expect(problems({ grant: 'client_credentials', clientId: 'c', clientSecret: '${secret:s}', tokenEndpointAuthMethod: 'none' })).toContain(
      'mcpServers.ci.oauth.clientSecret: is not sent with "tokenEndpointAuthMethod": "none": remove one of them',
    );
  });
});
