import { applyMiddlewares, createMiddleware, isDpopNonceChallenge, type FetchLike } from '@modelcontextprotocol/client';
import { oauthErrorCode } from './oauth-error-code';

export interface ChallengeHooks {
  /** A 401/403 arrived: an authorization may follow, so the loopback redirect target must exist. */
  readonly beforeAuthorization: () => Promise<void>;
  /** A request that carried an access token got 401: what Harbor knows about the authorization server may be stale. */
  readonly tokenRejected: () => Promise<void>;
  /**
   * A token request was refused with this OAuth error code. An error returned here is thrown in
   * place of the answer: the SDK then neither invalidates nor asks again (a machine grant's
   * refusal is final, and says what to fix).
   */
  readonly tokenRequestRefused?: (code: string | undefined) => Error | undefined;
}

/**
 * The fetch a remote server's transport uses. It watches answers before the SDK acts on them:
 * - any 401 or 403 starts the shared loopback listener first, so the redirect URI the SDK is about
 *   to register or send is a real one (the listener runs only once a server asked for sign-in);
 * - a 401 to a request that carried a token (Bearer or DPoP) drops the cached discovery state,
 *   because the SDK keeps using it otherwise — after an authorization-server migration it would
 *   never find the new server (conformance auth/authorization-server-migration). A DPoP nonce
 *   challenge is not a rejection: the SDK retries it with the server's nonce;
 * - a refused token request can be turned into Harbor's own error (machine grants), before the
 *   SDK reads it as an OAuth error and retries.
 */
export function authFetch(base: FetchLike, hooks: ChallengeHooks): FetchLike {
  const watch = createMiddleware(async (next, input, init) => {
    const response = await next(input, init);
    if (response.status === 401 || response.status === 403) {
      await hooks.beforeAuthorization();
      const presented = /^(bearer|dpop)\s/i.test(new Headers(init?.headers).get('authorization') ?? '');
      if (response.status === 401 && presented && !isDpopNonceChallenge(response)) await hooks.tokenRejected();
    }
    if (hooks.tokenRequestRefused && !response.ok && init?.body instanceof URLSearchParams && init.body.has('grant_type')) {
      const code = await oauthErrorCode(response);
      // A DPoP nonce challenge is answered by the SDK (RFC 9449 §8), not a refusal.
      const failure = code === 'use_dpop_nonce' ? undefined : hooks.tokenRequestRefused(code);
      if (failure) {
        await response.body?.cancel().catch(() => undefined); // a body that cannot be cancelled is already closed; `failure` is what counts
        throw failure;
      }
    }
    return response;
  });
  return applyMiddlewares(watch)(base);
}
