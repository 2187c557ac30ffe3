import { HarborError } from '../errors';
import { promiseOf } from '../promise-of';
import type { TransportAuth } from './transport-auth';

/** Sign-ins one operation (a connect, a call) may go through before it gives up. */
export const MAX_REAUTHORIZATIONS = 2;

/** A request failed for want of authorization: `requestWithSignIns` decides between signing in and AUTH_REQUIRED. */
export class SignInNeeded extends Error {
  constructor(
    readonly auth: TransportAuth,
    readonly failure: HarborError,
  ) {
    super(failure.message);
    this.name = 'SignInNeeded';
  }
}

/** AUTH_REQUIRED after a full budget of sign-ins: signing in once more will not help. */
export function signInsExhausted(server: string, failure: HarborError): HarborError {
  if (failure.code !== 'AUTH_REQUIRED') return failure;
  return new HarborError(
    'AUTH_FAILED',
    `"${server}" still asks for authorization after ${MAX_REAUTHORIZATIONS} sign-ins in a row; Harbor stopped asking. The server may need permissions the authorization server does not grant you.`,
    undefined,
    { cause: failure },
  );
}

/** The sign-ins one connect may still go through: a transport opened now may start one only while some are left. */
export class ConnectSignIns {
  private left: number;

  constructor(
    private readonly server: string,
    private readonly budget: number,
  ) {
    this.left = budget;
  }

  get allowed(): boolean {
    return this.left > 0;
  }

  /**
   * OAuth sign-in after a failed open: when the server needs authorization and a sign-in was
   * allowed, the session has opened the browser; wait for the loopback callback (state checked by
   * Harbor) and redeem the code on that transport. The caller then closes it and opens a NEW
   * transport. With no sign-in allowed (a background connect) this throws AUTH_REQUIRED: the
   * person signs in with "Sign in" / `harbor login`. Anything not about authorization is
   * rethrown as is.
   */
  async signInOrThrow(auth: TransportAuth | undefined, error: unknown): Promise<void> {
    const failure = auth?.authFailure(error);
    if (!auth || !failure) throw error;
    if (!auth.signInPending()) throw this.budget > 0 && this.left <= 0 ? signInsExhausted(this.server, failure) : failure;
    this.left--;
    await auth.completeSignIn();
  }
}

export interface SignInRecovery {
  /** The connection cannot work without a sign-in: its state must say so. */
  drop(failure: HarborError): Promise<void>;
  /** After a sign-in: connect again (a new transport with the new tokens), with what is left of the budget. */
  reconnect(signInBudget: number): Promise<void>;
}

/**
 * One request, with OAuth: a call that runs into a sign-in (expired grant, step-up to more
 * scopes) finishes that sign-in when one was allowed and retries on a new connection, at most
 * MAX_REAUTHORIZATIONS times. When none was allowed, the connection drops to
 * error{AUTH_REQUIRED} so the app shows "Sign in" and the CLI says `harbor login`.
 *
 * Not async: the request that needs no sign-in (nearly all) costs one `catch` on its promise, not
 * an async frame; a throw from `once` comes back as a rejection, as it did from an async loop.
 */
export function requestWithSignIns<T>(server: string, once: (signInsLeft: number) => Promise<T>, recovery: SignInRecovery): Promise<T> {
  return promiseOf(() => once(MAX_REAUTHORIZATIONS)).catch((error: unknown) => {
    if (!(error instanceof SignInNeeded)) throw error;
    return signInAndRetry(server, once, recovery, error);
  });
}

/** The sign-in loop, from a request's first SignInNeeded: sign in, reconnect, try again, while the budget lasts. */
async function signInAndRetry<T>(server: string, once: (signInsLeft: number) => Promise<T>, recovery: SignInRecovery, first: SignInNeeded): Promise<T> {
  let needed = first;
  for (let signIns = 0; ; ) {
    const { auth, failure } = needed;
    if (!auth.signInPending()) {
      const final = signIns >= MAX_REAUTHORIZATIONS ? signInsExhausted(server, failure) : failure;
      if (final.code === 'AUTH_REQUIRED') await recovery.drop(final);
      throw final;
    }
    signIns++;
    try {
      await auth.completeSignIn();
    } catch (signInError) {
      if (signInError instanceof HarborError && signInError.code === 'AUTH_REQUIRED') await recovery.drop(signInError);
      throw signInError;
    }
    await recovery.reconnect(MAX_REAUTHORIZATIONS - signIns);
    try {
      return await once(MAX_REAUTHORIZATIONS - signIns);
    } catch (error) {
      if (!(error instanceof SignInNeeded)) throw error;
      needed = error;
    }
  }
}
