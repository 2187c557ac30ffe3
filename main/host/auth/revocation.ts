import type { AddClientAuthentication, FetchLike, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

export interface Revocation {
  /** The authorization server's RFC 7009 endpoint (already checked to be https or loopback). */
  readonly endpoint: string;
  readonly client: StoredOAuthClientInformation;
  readonly tokens: StoredOAuthTokens;
  /** private_key_jwt: signs the client's assertion; otherwise the secret (Basic) or the bare client id. */
  readonly clientAuthentication: AddClientAuthentication | undefined;
  readonly fetch: FetchLike;
}

/**
 * RFC 7009: revokes a grant (its refresh token, else its access token), best effort for
 * `harbor logout`: true when the authorization server confirmed it, false on any failure (a
 * redirect included: the request carries the refresh token and the client's secret).
 */
export async function revokeTokens({ endpoint, client, tokens, clientAuthentication, fetch }: Revocation): Promise<boolean> {
  try {
    const body = new URLSearchParams({
      token: tokens.refresh_token ?? tokens.access_token,
      token_type_hint: tokens.refresh_token ? 'refresh_token' : 'access_token',
    });
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
    if (clientAuthentication) {
      body.set('client_id', client.client_id);
      await clientAuthentication(headers, body, endpoint);
    } else if (client.client_secret) {
      headers.set('authorization', `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`);
    } else {
      body.set('client_id', client.client_id);
    }
    // Never followed: a 307/308 would resend the refresh token and the client's secret to wherever
    // it points (another origin). A redirect is a failed revocation (test/security/token-request-redirects.test.ts).
    const response = await fetch(endpoint, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    // The status is the answer; a body that cannot be cancelled (already closed) changes nothing.
    await response.body?.cancel().catch(() => undefined);
    return response.ok;
  } catch {
    return false;
  }
}
