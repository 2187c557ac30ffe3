/**
 * Attack (#27 item 4): Harbor's own requests to an authorization server — refreshing a token,
 * revoking one at `harbor logout` — carry the refresh token and the client's secret (in the body
 * or a Basic header). fetch follows a 307/308 with the same method, headers and body, so an
 * authorization server (or whoever answers at its address) that redirects them sends both to
 * another origin. Those requests never follow a redirect: nothing reaches the other address.
 * Revocation followed it (fixed: seen failing, the other origin got the refresh token); the
 * refresh held already and stays held. Real HTTP servers on 127.0.0.1, Harbor's real ServerAuth
 * and the SDK's real refresh.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackCallbackServer } from '../../main/host/auth/callback-server';
import { parseOAuthConfig } from '../../main/host/auth/config';
import { OAuthCredentialStore, credentialKey } from '../../main/host/auth/credential-store';
import { revokeTokens } from '../../main/host/auth/revocation';
import { ServerAuth } from '../../main/host/auth/server-auth';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';

const REFRESH = 'refresh-token-value-5521';
const CLIENT_SECRET = 'client-secret-value-9034';

interface Received {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

const servers: Server[] = [];
const listeners: LoopbackCallbackServer[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.dispose()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handle(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Another origin that records everything sent to it. */
async function thief(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const url = await listen((req, body, res) => {
    received.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'stolen', token_type: 'Bearer' }));
  });
  return { url, received };
}

/** An authorization server (and the MCP server's protected-resource metadata) whose token and revocation endpoints redirect to `to`. */
async function redirectingAuthorizationServer(to: string): Promise<{ as: string; posts: string[] }> {
  const posts: string[] = [];
  let origin = '';
  origin = await listen((req, _body, res) => {
    const json = (value: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url?.startsWith('/.well-known/oauth-protected-resource')) return json({ resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (req.url?.startsWith('/.well-known/oauth-authorization-server') || req.url?.startsWith('/.well-known/openid-configuration')) {
      return json({
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        revocation_endpoint: `${origin}/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    }
    if (req.method === 'POST') posts.push(req.url ?? '');
    if (req.method === 'POST') return res.writeHead(307, { location: `${to}/steal${req.url}` }).end();
    res.writeHead(404).end();
  });
  return { as: origin, posts };
}

describe("Harbor's token requests never follow a redirect", () => {
  it('revocation (harbor logout): the refresh token and client secret are not resent to another origin', async () => {
    const stolen = await thief();
    const { as, posts } = await redirectingAuthorizationServer(stolen.url);
    const revoked = await revokeTokens({
      endpoint: `${as}/revoke`,
      client: { client_id: 'harbor-pre', client_secret: CLIENT_SECRET },
      tokens: { access_token: 'access-1', refresh_token: REFRESH, token_type: 'Bearer' },
      clientAuthentication: undefined,
      fetch: (input, init) => fetch(input, init),
    });
    expect(posts).toEqual(['/revoke']);
    expect(revoked).toBe(false);
    expect(stolen.received).toEqual([]);
  });

  it('refresh before expiry: the refresh token and client secret are not resent to another origin', async () => {
    const stolen = await thief();
    const { as, posts } = await redirectingAuthorizationServer(stolen.url);
    const mcp = `${as}/mcp`;
    const store = new OAuthCredentialStore(new MemorySecretStore());
    const oauth = { clientId: 'harbor-pre', clientSecret: '${secret:client-secret}' };
    // A sign-in saved earlier: bound to this authorization server, its access token about to lapse.
    await store.saveBinding('remote', mcp, { issuer: as, resource: mcp });
    await store.saveTokens(credentialKey(as, mcp), { tokens: { access_token: 'access-old', refresh_token: REFRESH, token_type: 'Bearer', expires_in: 60 }, savedAt: Date.now() - 59_000 });
    const callbacks = new LoopbackCallbackServer();
    listeners.push(callbacks);
    const auth = new ServerAuth({
      server: 'remote',
      url: mcp,
      oauth: '',
      store,
      callbacks,
      clientMetadataUrl: undefined,
      clientName: 'Harbor',
      clientVersion: '0',
      resolveSecret: async () => CLIENT_SECRET,
      remember: () => undefined,
      callbackTimeoutMs: 1_000,
      fetch: (input, init) => fetch(input, init),
      now: Date.now,
    });
    auth.config = parseOAuthConfig('remote', oauth);
    auth.reload();
    const tokens = await auth.bearerTokens();
    expect(posts).toEqual(['/token']); // the refresh was attempted…
    expect(tokens?.access_token).not.toBe('stolen');
    expect(stolen.received).toEqual([]); // …and went nowhere else
  });
});
