import type { Client } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import { promiseOf } from '../promise-of';
import type { CallOptions } from './connection-types';
import { inRequestScope, RunningRequestScope, type RequestScope } from './request-scope';
import { pagesToOpen, type PageToOpen } from './url-elicitation';
import { SignInNeeded } from './sign-in';
import type { TransportAuth } from './transport-auth';

/** The SDK's per-request options, as Harbor fills them in. */
export type SdkRequestOptions = Parameters<Client['callTool']>[1] & object;

/** Whom one request goes to: the server, its transport's sign-in, and how to explain a failure. */
export interface RequestTarget {
  readonly server: string;
  readonly auth: TransportAuth | undefined;
  /** A HarborError carrying the server's stderr tail and exit status. */
  describeFailure(error: unknown, action: string, userAborted: boolean): HarborError;
}

/**
 * The requests a connection has in flight, each with its timeouts and the caller's abort. A
 * connection that loses its transport (or shuts down) fails them all at once with `abortAll`
 * instead of leaving them to their timeouts.
 */
export class InFlightRequests {
  /** The aborts of requests that have one of their own (a caller's signal, a hard ceiling). */
  private readonly controllers = new Set<AbortController>();
  /**
   * The one abort of every request that brings neither a signal nor a ceiling (a one-shot call,
   * the catalog's lists): only `abortAll` can end those, so they share it, and such a request
   * builds no AbortController, listener or Set entry of its own. `abortAll` fires it and starts a
   * new one. (The SDK listens on it once per request in flight: Node sets no listener limit on an AbortSignal.)
   */
  private shared = new AbortController();
  private readonly scopes = new Set<RequestScope>();

  /** `pagesRequired`: a request failed because the server wants the person to open pages first (shown as URL questions). */
  constructor(private readonly pagesRequired?: (pages: readonly PageToOpen[], scope: RequestScope) => void) {}

  abortAll(reason: HarborError): void {
    const shared = this.shared;
    // Replaced first: a request started while the abort's listeners run is not aborted with these.
    this.shared = new AbortController();
    shared.abort(reason);
    for (const controller of this.controllers) controller.abort(reason);
  }

  /**
   * The request a server's question belongs to: the one it arrived in (`linked`, while that
   * request is still running); with no link — a legacy stdio server's request says nothing about
   * its cause — the only request in flight, if there is exactly one. Otherwise none: never a guess.
   */
  attribute(linked: RequestScope | undefined): RequestScope | undefined {
    if (linked) return this.scopes.has(linked) ? linked : undefined;
    return this.scopes.size === 1 ? this.scopes.values().next().value : undefined;
  }

  /**
   * Runs one request: the per-request timeout (reset by progress), the hard ceiling over the
   * whole call, and the caller's abort reported as CANCELLED. An authorization failure comes back
   * as SignInNeeded for the sign-in policy to decide.
   */
  run<T>(
    target: RequestTarget,
    client: Client,
    action: string,
    options: CallOptions,
    run: (client: Client, requestOptions: SdkRequestOptions) => Promise<T>,
  ): Promise<T> {
    const ownAbort = options.signal !== undefined || options.maxTotalMs !== undefined;
    const controller = ownAbort ? new AbortController() : this.shared;
    const onUserAbort = () => controller.abort(options.signal?.reason ?? new Error('cancelled'));
    // SDK 2.4.0's maxTotalTimeout rejects without telling the server; our own hard ceiling aborts
    // the request, which sends notifications/cancelled (stdio) or closes the stream (HTTP).
    let hardTimeout: ReturnType<typeof setTimeout> | undefined;
    let hitHardTimeout = false;
    if (ownAbort) {
      if (options.signal?.aborted) onUserAbort();
      options.signal?.addEventListener('abort', onUserAbort, { once: true });
      if (options.maxTotalMs !== undefined) {
        hardTimeout = setTimeout(() => {
          hitHardTimeout = true;
          controller.abort(new Error(`Maximum total time of ${options.maxTotalMs} ms exceeded`));
        }, options.maxTotalMs);
      }
      this.controllers.add(controller);
    }
    const scope = new RunningRequestScope(target.server, action, options.origin);
    this.scopes.add(scope);
    const finish = () => {
      if (ownAbort) {
        if (hardTimeout) clearTimeout(hardTimeout);
        options.signal?.removeEventListener('abort', onUserAbort);
        this.controllers.delete(controller);
      }
      this.scopes.delete(scope);
      scope.finish();
    };
    /** What the request's failure is reported as: computed before the request counts as finished. */
    const failure = (error: unknown): unknown => {
      const reason: unknown = controller.signal.reason;
      if (reason instanceof HarborError) return reason;
      const pages = pagesToOpen(error);
      if (pages?.length) this.pagesRequired?.(pages, scope);
      if (hitHardTimeout) {
        // The server's stderr tail travels with it, as with every other failure.
        const { detail } = target.describeFailure(error, action, false);
        return new HarborError('TIMEOUT', `"${target.server}" did not finish ${action} within ${options.maxTotalMs} ms; the request was cancelled.`, detail);
      }
      const authFailure = options.signal?.aborted ? undefined : target.auth?.authFailure(error);
      if (target.auth && authFailure) return new SignInNeeded(target.auth, authFailure);
      return target.describeFailure(error, action, options.signal?.aborted === true);
    };
    // Not async: the request's own promise and one `then`, instead of an async frame around it.
    // Only `run` executes in the request's scope; its settling needs none.
    const request = promiseOf(() =>
      inRequestScope(scope, () =>
        run(client, {
          signal: controller.signal,
          timeout: options.timeoutMs ?? 60_000,
          resetTimeoutOnProgress: true,
          ...(options.onProgress ? { onprogress: options.onProgress } : {}),
        }),
      ),
    );
    return request.then(
      (result) => {
        finish();
        return result;
      },
      (error: unknown) => {
        try {
          throw failure(error);
        } finally {
          finish();
        }
      },
    );
  }
}

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** `completion/complete`: at most 100 suggestions, as the spec caps them. */
export async function complete(client: Client, params: Parameters<Client['complete']>[0], timeoutMs: number): Promise<Completion> {
  const result = await client.complete(params, { timeout: timeoutMs });
  const { values, total, hasMore } = result.completion;
  return { values: values.slice(0, 100), ...(total !== undefined ? { total } : {}), ...(hasMore !== undefined ? { hasMore } : {}) };
}
