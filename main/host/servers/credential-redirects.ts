import type { FetchLike } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';

/** Headers that are credentials whatever the server: tokens (Bearer, DPoP), a client's Basic secret, cookies. */
const CREDENTIAL_HEADERS = ['authorization', 'dpop', 'proxy-authorization', 'cookie'];

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The fetch under a remote server's transport: a request that carries a credential — one of
 * CREDENTIAL_HEADERS, or any header the server's registry entry sets (an API key is one) — never
 * follows a redirect. fetch and the SDK would resend it: to another path of the same origin with
 * the Authorization header (`/a/mcp` → 307 → `/b/mcp`, another tenant of one host), and to any
 * origin with the configured headers. Such a redirect ends the request with an error naming both
 * addresses and the fix; a request without credentials is left as it was.
 */
export function withoutCredentialRedirects(base: FetchLike, server: string, configuredHeaders: readonly string[]): FetchLike {
  const credentials = new Set([...CREDENTIAL_HEADERS, ...configuredHeaders.map((name) => name.toLowerCase())]);
  return async (url, init) => {
    // A Request given as the address carries headers of its own, which fetch sends as well.
    const own = typeof Request !== 'undefined' && (url as unknown) instanceof Request ? [...(url as unknown as Request).headers.keys()] : [];
    const headers = [...own, ...new Headers(init?.headers).keys()];
    if (!headers.some((name) => credentials.has(name))) return base(url, init);
    const response = await base(url, { ...init, redirect: 'manual' });
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
    if (response.type !== 'opaqueredirect' && location === null) return response;
    // The redirect's body is not read: nothing of it is wanted, and the connection is released.
    await response.body?.cancel().catch(() => undefined);
    const from = new URL(typeof url === 'string' || url instanceof URL ? url : (url as unknown as Request).url);
    const to = location === null ? undefined : URL.parse(location, from);
    throw new HarborError(
      'CONNECT_FAILED',
      `Server "${server}" redirected a request from ${describe(from)} to ${to ? describe(to) : 'an address it did not say'}. Harbor does not send the server's sign-in or its configured headers to another address. If the new address is the right one, change the server's URL to it.`,
    );
  };
}

/** An address without its query or fragment (where a redirect may put a code or a session). */
function describe(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
