import { applyMiddlewares, createMiddleware, type FetchLike } from '@modelcontextprotocol/client';

export interface ChallengeHooks {
  /** A 401/403 arrived: an authorization may follow, so the loopback redirect target must exist. */
  readonly beforeAuthorization: () => Promise<void>;
  /** A request that carried a bearer token got 401: what Harbor knows about the authorization server may be stale. */
  readonly tokenRejected: () => Promise<void>;
}

/**
 * The fetch a remote server's transport uses. It watches answers before the SDK acts on them:
 * - any 401 or 403 starts the shared loopback listener first, so the redirect URI the SDK is about
 *   to register or send is a real one (the listener runs only once a server asked for sign-in);
 * - a 401 to a request that carried a bearer token drops the cached discovery state, because the
 *   SDK keeps using it otherwise — after an authorization-server migration it would never find
 *   the new server (conformance auth/authorization-server-migration).
 */
export function authFetch(base: FetchLike, hooks: ChallengeHooks): FetchLike {
  const watch = createMiddleware(async (next, input, init) => {
    const response = await next(input, init);
    if (response.status === 401 || response.status === 403) {
      await hooks.beforeAuthorization();
      if (response.status === 401 && /^bearer\s/i.test(new Headers(init?.headers).get('authorization') ?? '')) await hooks.tokenRejected();
    }
    return response;
  });
  return applyMiddlewares(watch)(base);
}
