import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * The bare OAuth error code (RFC 6749 §5.2 `error`) of a refused request, or undefined. Only the
 * code is ever shown to the person: descriptions are the server's own text (in a mix-up attack,
 * an attacker's).
 */
export async function oauthErrorCode(response: Response): Promise<string | undefined> {
  if (response.ok) return undefined;
  try {
    const code = ((await response.clone().json()) as { error?: unknown }).error;
    return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/** A fetch that remembers the OAuth error code of the last refused request made through it. */
export function recordingRefusals(base: FetchLike): { fetch: FetchLike; lastRefusal: () => string | undefined } {
  let last: string | undefined;
  return {
    fetch: async (input, init) => {
      const response = await base(input, init);
      const code = await oauthErrorCode(response);
      if (code) last = code;
      return response;
    },
    lastRefusal: () => last,
  };
}
