import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { HarborError } from '../errors';

/**
 * The port through which a connection signs in to a remote server. The servers folder declares
 * it and only uses it; main/host/auth implements it (servers never import auth).
 */

/** What a connection needs from one transport's OAuth sign-in. */
export interface TransportAuth {
  /** Whether this transport may open a browser (the operation's re-authorization budget). */
  allowSignIn(allowed: boolean): void;
  /** True when the last failure started a sign-in the person can finish now. */
  signInPending(): boolean;
  /** Waits for the loopback callback (state checked by Harbor), then redeems the code on this transport. */
  completeSignIn(): Promise<void>;
  /** The failure as AUTH_REQUIRED / AUTH_FAILED when it is about authorization, else undefined. */
  authFailure(error: unknown): HarborError | undefined;
}

/** A transport that can redeem an authorization code (Streamable HTTP and legacy SSE both can). */
export interface FinishesAuth {
  finishAuth(callbackParams: URLSearchParams): Promise<void>;
}

/** What the transport factory attaches to a remote server's new transport. */
export interface TransportAuthParts {
  readonly provider: OAuthClientProvider;
  readonly fetch: FetchLike;
  bind(transport: FinishesAuth): TransportAuth;
}

/**
 * The OAuth parts for a new transport to `url`, or undefined when Harbor does no OAuth for it
 * (e.g. its configuration sends its own Authorization header).
 */
export type TransportAuthSource = (server: string, url: string, headers: Readonly<Record<string, string>>) => TransportAuthParts | undefined;
