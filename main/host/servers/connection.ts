import type { CallToolResult, Client, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { ConnectionState, StaleListsData } from '../../../preload/contract';
import { HarborError } from '../errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { Catalog, CatalogKind } from './catalog';
import { CatalogSync } from './catalog-sync';
import type { ServerFeatures } from './client-features';
import type { CallOptions, ConnectionDeps, ConnectionInfo } from './connection-types';
import { ConnectionLostError } from './connection-failures';
import { LaunchAttempt, type AttemptEvents } from './launch-attempt';
import { launchHash, type LaunchSpec } from './launch';
import { currentRequestScope, outsideAnyRequest } from './request-scope';
import { InFlightRequests, complete, type Completion, type CompletionRef, type SdkRequestOptions } from './requests';
import { applyLegacyLogLevel } from './log-level';
import { ResourceSubscriptions } from './resource-subscriptions';
import { RestartScheduler } from './restart-scheduler';
import { StaleLists } from './stale-lists';
import { MAX_REAUTHORIZATIONS, requestWithSignIns } from './sign-in';
import type { TaskWire } from './task-wire/wire';

// The connection's vocabulary lives in small modules; callers keep importing it from here.
export type { CallOptions, ConnectionChange, ConnectionDeps, ConnectionInfo, OpenedTransport, TransportFactory } from './connection-types';

/**
 * One configured server, as a state machine: stopped → starting → ready, error, or restarting
 * with backoff after a crash. Each connect is one LaunchAttempt, which owns the transport, the
 * client and everything opened for them; the connection holds the current attempt (a
 * superseded one is always disposed), the catalog, the requests in flight and the restart timer.
 */
export class ServerConnection implements Disposable {
  private _state: ConnectionState = { kind: 'stopped' };
  private _info: ConnectionInfo = {};
  private attempt: LaunchAttempt | undefined;
  /** The process Harbor restarted this one after: kept on the ready state until the person stops or restarts it. */
  private crashed: Extract<ConnectionState, { kind: 'ready' }>['recovered'];
  /** The connect in flight; stop() forgets it, so a start() right after begins afresh. */
  private connecting: Promise<void> | undefined;
  private readonly restarts: RestartScheduler;
  private readonly requests: InFlightRequests;
  private readonly catalogSync: CatalogSync;
  private readonly staleLists: StaleLists;
  /** The resources the person subscribed to, re-applied on every connect. */
  readonly subscriptions: ResourceSubscriptions;
  /** What each attempt is given: the deps, with a server's questions tied to the request they belong to. */
  private readonly attemptDeps: ConnectionDeps;
  private disposed = false;
  private readonly now: () => number;

  constructor(
    readonly name: string,
    readonly spec: LaunchSpec,
    private readonly deps: ConnectionDeps,
  ) {
    trackDisposable(this);
    this.now = deps.now ?? Date.now;
    this.restarts = new RestartScheduler(deps.restartPolicy, this.now);
    this.attemptDeps = {
      ...deps,
      elicit: (request, context) => {
        const belongsTo = this.requests.attribute(context.request ?? currentRequestScope());
        if (!belongsTo) return deps.elicit(request, { signal: context.signal });
        // A question outlives neither the server's patience nor the request it was asked in.
        return deps.elicit(request, { signal: AbortSignal.any([context.signal, belongsTo.ended]), request: belongsTo });
      },
      ...(deps.features ? { features: this.attributedFeatures(deps.features) } : {}),
    };
    // "Open these pages first" (-32042) is shown as the server's URL questions are: the request has
    // already failed, so the person's answer only opens the page (or not) before they try again.
    this.requests = new InFlightRequests((pages, scope) => {
      for (const page of pages) {
        const question = { mode: 'url' as const, message: page.message, url: page.url, elicitationId: page.elicitationId };
        // Nothing waits on the answer (the request has failed, and its error names the page), so a
        // question that cannot be shown loses nothing: that error still reaches the caller.
        void deps.elicit(question, { signal: new AbortController().signal, request: scope, afterFailure: true }).catch(() => undefined);
      }
    });
    this.catalogSync = new CatalogSync({
      source: () => this.attempt?.connected,
      timeoutMs: deps.connectTimeoutMs,
      isReady: () => this._state.kind === 'ready',
      onChange: (changed) => deps.onChange({ kind: 'catalog', changed }),
      ...(deps.catalogOnConnect ? { connectKinds: deps.catalogOnConnect } : {}),
      log: (message, error) => this.warn(message, error),
    });
    this.staleLists = new StaleLists({
      server: name,
      refetch: (lists) => this.refreshCatalog(lists),
      onChange: () => deps.onChange({ kind: 'stale' }),
      lastGoodAt: () => this.catalogSync.fetchedAt,
      ...(deps.log ? { log: deps.log } : {}),
    });
    this.subscriptions = new ResourceSubscriptions({
      source: () => this.attempt?.connected,
      timeoutMs: deps.connectTimeoutMs,
      isReady: () => this._state.kind === 'ready',
      log: (message, error) => this.warn(message, error),
    });
  }

  /** Harbor's log, for a failure that no caller awaits: what was being done, and the error. */
  private warn(message: string, error: unknown): void {
    this.deps.log?.write('warn', { area: 'servers', server: this.name, message, error });
  }

  /** A server's sampling request, tied (like a question) to the request of Harbor's it belongs to. */
  private attributedFeatures(features: ServerFeatures): ServerFeatures {
    return {
      declared: () => features.declared(),
      listRoots: () => features.listRoots(),
      logged: (message) => features.logged(message),
      logLevel: () => features.logLevel(),
      sample: (params, context) => {
        const belongsTo = this.requests.attribute(context.request ?? currentRequestScope());
        if (!belongsTo) return features.sample(params, { signal: context.signal });
        return features.sample(params, { signal: AbortSignal.any([context.signal, belongsTo.ended]), request: belongsTo });
      },
    };
  }

  get state(): ConnectionState {
    return this._state;
  }
  get info(): ConnectionInfo {
    return this._info;
  }
  get catalog(): Catalog {
    return this.catalogSync.catalog;
  }
  /** Lists whose refresh failed (the catalog holds the last good ones). */
  get stale(): StaleListsData | undefined {
    return this.staleLists.current;
  }
  /** Fetches the stale lists again now (the card's Retry). */
  retryStaleLists(): Promise<void> {
    return this.staleLists.retryNow();
  }
  get configHash(): string {
    return launchHash(this.spec);
  }

  /** Connects; resolves once ready or in error (never throws: the state says what happened). */
  start(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this._state.kind === 'ready') return Promise.resolve();
    return this.connecting ?? this.launch(() => this.connect(false));
  }

  /** Resolves when the server is ready; throws its error otherwise. */
  async whenReady(): Promise<void> {
    await this.start();
    const state = this._state;
    if (state.kind === 'ready') return;
    if (state.kind === 'error') throw new HarborError(state.code, state.message, state.stderrTail || undefined);
    throw new HarborError('CONNECTION_CLOSED', `"${this.name}" is ${state.kind}.`);
  }

  async stop(): Promise<void> {
    this.connecting = undefined;
    this.restarts.cancel();
    this.staleLists.reset();
    this.crashed = undefined;
    await this.endAttempt();
    this.setState({ kind: 'stopped' });
  }

  async restart(): Promise<void> {
    await this.stop();
    this.deps.restartPolicy.reset();
    await this.start();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    this.restarts.dispose();
    this.staleLists.dispose();
    this.requests.abortAll(new HarborError('CANCELLED', 'Harbor is shutting down.'));
    await this.endAttempt();
    this._state = { kind: 'stopped' };
  }

  /**
   * Refetches the given parts of the catalog (all of it by default), in order with every other
   * refresh; emits a `catalog` change unless `emit` is false.
   */
  refreshCatalog(kinds?: readonly CatalogKind[], options: { emit?: boolean } = {}): Promise<void> {
    return this.catalogSync.refresh(kinds, options);
  }

  /** For status lines: the connection's recent stderr. */
  stderrTail(): string {
    return this.attempt?.stderrTail() ?? '';
  }

  // ------------------------------------------------------------------------------------------
  // Attempts

  /** Runs `run` as "the" connect in flight (see `connecting`). */
  private launch(run: () => Promise<void>): Promise<void> {
    // A connect started by a call must not run in that call's scope: its process and streams outlive it.
    const connect: Promise<void> = outsideAnyRequest(run).finally(() => {
      if (this.connecting === connect) this.connecting = undefined;
    });
    this.connecting = connect;
    return connect;
  }

  private async connect(isRestart: boolean, signInBudget = MAX_REAUTHORIZATIONS): Promise<void> {
    // A new attempt supersedes a scheduled restart and whatever attempt came before.
    this.restarts.cancel();
    const previous = this.attempt;
    const attempt = new LaunchAttempt(this.name, this.spec, this.attemptDeps, this.attemptEvents);
    this.attempt = attempt;
    if (previous) void previous.dispose().catch((error: unknown) => this.warn('stopping the superseded launch failed', error));
    this.setState({ kind: 'starting' });
    this.deps.restartPolicy.recordStart(this.now());
    try {
      await attempt.run(signInBudget);
      if (!attempt.isDisposed) this.setState({ kind: 'ready', ...(this.crashed ? { recovered: this.crashed } : {}) });
    } catch (error) {
      if (attempt.isDisposed) return;
      // Close first, then read: once the process is gone its last stderr lines are in the ring.
      await attempt.dispose().catch(() => undefined);
      if (this.attempt !== attempt) return;
      const failure = attempt.describeFailure(error, 'connecting');
      if (isRestart) this.scheduleRestart(failure, attempt.exitDescription());
      else this.setError(failure);
    }
  }

  private async endAttempt(): Promise<void> {
    const attempt = this.attempt;
    this.attempt = undefined;
    await attempt?.dispose();
  }

  private readonly attemptEvents: AttemptEvents = {
    opened: async (attempt) => {
      const connected = attempt.connected;
      this._info = connected?.info ?? {};
      await this.catalogSync.connected();
      this.staleLists.succeeded();
      if (connected) await applyLegacyLogLevel(connected.channel.client, this._info, this.deps.features?.logLevel(), this.deps.connectTimeoutMs);
      void this.subscriptions.connected().catch(() => undefined); // logged by ResourceSubscriptions with the URI and what failed
    },
    lost: (attempt) => this.onLost(attempt),
    // SDK 2.4.0 does not fail a request whose Streamable HTTP response stream drops (it waits for
    // the 60 s timeout). The spec says that request is lost: fail it now.
    responseStreamDropped: (_attempt, message) =>
      this.requests.abortAll(new HarborError('CONNECTION_CLOSED', `"${this.name}" dropped the response stream: ${message}. The request was lost; try again.`)),
    // A refresh that fails keeps the last good lists, marked stale, and is retried (stale-lists.ts).
    listChanged: (_attempt, announced) => {
      const kinds = this.catalogSync.followed(announced);
      if (kinds.length > 0) void this.refreshCatalog(kinds).then(() => this.staleLists.succeeded(), (error: unknown) => this.staleLists.failed(kinds, error));
    },
    resourceUpdated: (_attempt, uri) => this.deps.onChange({ kind: 'resourceUpdated', uri }),
  };

  // ------------------------------------------------------------------------------------------
  // Crashes and restarts

  private onLost(attempt: LaunchAttempt): void {
    if (this.disposed || this._state.kind === 'stopped') return;
    const failure = attempt.describeFailure(new ConnectionLostError(), 'running');
    this.requests.abortAll(failure);
    void attempt.dispose().then(
      () => {
        if (this.attempt === attempt) this.scheduleRestart(failure, attempt.exitDescription());
      },
      () => undefined,
    );
  }

  private scheduleRestart(failure: HarborError, exit: string | undefined): void {
    if (this.disposed) return;
    this.crashed = { at: this.now(), message: failure.message, ...(exit ? { exit } : {}), ...(failure.detail ? { stderrTail: failure.detail } : {}) };
    const restarting = this.restarts.schedule(() => {
      if (!this.disposed && !this.connecting) void this.launch(() => this.connect(true));
    });
    if (restarting) this.setState({ ...restarting, message: failure.message, ...(failure.detail ? { stderrTail: failure.detail } : {}) });
    else this.setError(failure);
  }

  private setError(error: HarborError): void {
    this.setState({ kind: 'error', code: error.code, message: error.message, stderrTail: error.detail ?? '' });
  }

  private setState(state: ConnectionState): void {
    if (this.disposed) return;
    if (state.kind === 'ready') this.deps.restartPolicy.recordHealthy(this.now());
    this._state = state;
    this.deps.onChange({ kind: 'state', state });
  }

  // ------------------------------------------------------------------------------------------
  // Calls

  callTool(name: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult> {
    return this.request(`calling tool ${name}`, options, (client, requestOptions) =>
      client.callTool({ name, ...(args ? { arguments: args } : {}) }, requestOptions) as Promise<CallToolResult>,
    );
  }

  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.request(`reading ${uri}`, options, (client, requestOptions) => client.readResource({ uri }, requestOptions));
  }

  getPrompt(name: string, args: Record<string, string> | undefined, options: CallOptions = {}): Promise<GetPromptResult> {
    return this.request(`getting prompt ${name}`, options, (client, requestOptions) =>
      // Always an arguments object, empty when none were given: some servers' prompts refuse a
      // request without one, and an empty object means the same to those that do not.
      client.getPrompt({ name, arguments: args ?? {} }, requestOptions),
    );
  }

  /** `completion/complete`, when the server offers completions; otherwise no suggestions. */
  async complete(ref: CompletionRef, argument: { name: string; value: string }, context?: Record<string, string>): Promise<Completion> {
    await this.whenReady();
    const attempt = this.attempt;
    const client = attempt?.client;
    if (!this._info.capabilities?.completions || !attempt || !client) return { values: [] };
    try {
      return await complete(client, { ref, argument, ...(context ? { context: { arguments: context } } : {}) }, this.deps.connectTimeoutMs);
    } catch (error) {
      throw attempt.describeFailure(error, `completing ${argument.name}`);
    }
  }

  /**
   * The registry's roots or log level of this server changed while it runs: a legacy server is told
   * (`notifications/roots/list_changed`, `logging/setLevel`); a modern one reads them on its next request.
   */
  async featuresChanged(changed: { readonly roots?: boolean; readonly logLevel?: boolean }): Promise<void> {
    const connected = this._state.kind === 'ready' ? this.attempt?.connected : undefined;
    if (!connected || this._info.era !== 'legacy') return;
    const { client } = connected.channel;
    if (changed.roots && this.deps.features?.declared().roots) await client.sendRootsListChanged().catch((error: unknown) => this.warn('telling the server its roots changed failed', error));
    if (changed.logLevel) await applyLegacyLogLevel(client, this._info, this.deps.features?.logLevel(), this.deps.connectTimeoutMs);
  }

  /** The task plumbing of the channel connected now (task-wire/), if any. */
  get tasks(): TaskWire | undefined {
    return this.attempt?.connected?.channel.tasks;
  }

  /**
   * A request made by code outside this class (the tasks of task-wire/requests.ts): the same
   * timeouts, abort, scope and sign-in policy as every call above.
   */
  requestOn<T>(action: string, options: CallOptions, run: (client: Client, requestOptions: SdkRequestOptions) => Promise<T>): Promise<T> {
    return this.request(action, options, run);
  }

  /** One request, with the sign-in policy of sign-in.ts around it. */
  private request<T>(action: string, options: CallOptions, run: (client: Client, requestOptions: SdkRequestOptions) => Promise<T>): Promise<T> {
    return requestWithSignIns(this.name, (signInsLeft) => this.requestOnce(action, options, run, signInsLeft), {
      drop: (failure) => this.dropForSignIn(failure),
      reconnect: (signInBudget) => this.reconnectAfterSignIn(signInBudget),
    });
  }

  private requestOnce<T>(action: string, options: CallOptions, run: (client: Client, requestOptions: SdkRequestOptions) => Promise<T>, signInsLeft: number): Promise<T> {
    // The hot path of every call: a ready connection skips the start() round trip (and the await).
    if (this._state.kind !== 'ready') return this.whenReady().then(() => this.requestNow(action, options, run, signInsLeft));
    return this.requestNow(action, options, run, signInsLeft);
  }

  /** Throws at once when not connected: requestWithSignIns (sign-in.ts) takes that like a rejection. */
  private requestNow<T>(action: string, options: CallOptions, run: (client: Client, requestOptions: SdkRequestOptions) => Promise<T>, signInsLeft: number): Promise<T> {
    const attempt = this.attempt;
    const client = attempt?.client;
    if (!attempt || !client) throw new HarborError('CONNECTION_CLOSED', `"${this.name}" is not connected.`);
    attempt.auth?.allowSignIn(signInsLeft > 0);
    return this.requests.run(attempt, client, action, options, run);
  }

  /** The connection cannot work without a sign-in: its state says so (the app's "Sign in" action). */
  private async dropForSignIn(failure: HarborError): Promise<void> {
    this.restarts.cancel();
    await this.endAttempt();
    this.setError(failure);
  }

  /** After a sign-in: a new attempt (a new transport with the new tokens, the SDK's advice), then the call again. */
  private async reconnectAfterSignIn(signInBudget: number): Promise<void> {
    this.connecting = undefined;
    this.restarts.cancel();
    await this.endAttempt();
    await this.launch(() => this.connect(false, signInBudget));
  }
}
