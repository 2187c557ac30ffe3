import { ProtocolError } from '@modelcontextprotocol/client';
import type {
  CallToolResult,
  Client,
  GetPromptResult,
  Implementation,
  McpSubscription,
  PriorDiscovery,
  ReadResourceResult,
  ServerCapabilities,
  Transport,
} from '@modelcontextprotocol/client';
import type { ConnectionState, Era } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { Disposable } from '../lifecycle';
import type { RestartPolicy } from './backoff';
import { EMPTY_CATALOG, diffCatalog, type Catalog, type CatalogKind } from './catalog';
import { createMcpClient, type ElicitationHandler } from './client-factory';
import type { EraCache } from './era-cache';
import { toHarborError } from './errors';
import { launchHash, type LaunchSpec } from './launch';
import { ProbeOutcome } from './probe-outcome';
import { tapTransport } from './tap';
import type { TrafficLog } from './traffic';

/** A transport opened for one connection attempt, with what Harbor knows about its process. */
export interface OpenedTransport {
  readonly transport: Transport;
  /** Recent stderr lines (stdio), shown with every failure. */
  stderrTail(): string;
  /** "exited with code 1" once a process has ended. */
  exitDescription(): string | undefined;
  /** OAuth sign-in for a remote server (main/host/auth); absent for stdio and static-header servers. */
  readonly auth?: TransportAuth;
}

/** What a connection needs from a transport's OAuth sign-in (implemented by main/host/auth/session.ts). */
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

/** Sign-ins one operation (a connect, a call) may go through before it gives up. */
export const MAX_REAUTHORIZATIONS = 2;

export type TransportFactory = (spec: LaunchSpec, options: { legacySse: boolean; server?: string }) => OpenedTransport;

export interface ConnectionDeps {
  readonly clientInfo: Implementation;
  readonly eraCache: EraCache;
  readonly traffic: TrafficLog;
  readonly openTransport: TransportFactory;
  readonly elicit: ElicitationHandler;
  readonly restartPolicy: RestartPolicy;
  readonly probeTimeoutMs: number;
  /** Timeout of connect and of list requests. */
  readonly connectTimeoutMs: number;
  readonly onChange: (change: ConnectionChange) => void;
  /** The launch consent gate: throws when the person has not approved starting this server. */
  readonly authorizeLaunch?: (spec: LaunchSpec) => Promise<void>;
  /** Resolves `${secret:…}` references (secrets issue): the spec actually launched, built per attempt. */
  readonly prepareLaunch?: (spec: LaunchSpec) => Promise<LaunchSpec>;
  readonly now?: () => number;
}

export type ConnectionChange =
  | { readonly kind: 'state'; readonly state: ConnectionState }
  | { readonly kind: 'catalog'; readonly changed: readonly CatalogKind[] }
  | { readonly kind: 'resourceUpdated'; readonly uri: string };

export interface CallOptions {
  /** The caller's abort (Stop in the UI, Ctrl-C in the CLI): reported as CANCELLED. */
  readonly signal?: AbortSignal;
  /** Per-request timeout, reset by progress. */
  readonly timeoutMs?: number;
  /** Hard ceiling over the whole call, progress or not. */
  readonly maxTotalMs?: number;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface ConnectionInfo {
  readonly era?: Era;
  readonly protocolVersion?: string;
  readonly serverInfo?: { name: string; version: string };
  readonly instructions?: string;
  readonly capabilities?: ServerCapabilities;
}

const LIST_CHANGED = {
  'notifications/tools/list_changed': ['tools'],
  'notifications/prompts/list_changed': ['prompts'],
  'notifications/resources/list_changed': ['resources', 'resourceTemplates'],
} as const satisfies Record<string, readonly CatalogKind[]>;

/**
 * One configured server: connects (negotiating the era, reusing a cached verdict), keeps its
 * catalog fresh (modern `subscriptions/listen`, legacy `list_changed`), restarts after a crash
 * with backoff, and runs calls with timeouts and cancellation. Owns its client, transport,
 * subscription and timers; `dispose()` ends all of them.
 */
export class ServerConnection implements Disposable {
  private _state: ConnectionState = { kind: 'stopped' };
  private _info: ConnectionInfo = {};
  private _catalog: Catalog = EMPTY_CATALOG;
  private client: Client | undefined;
  private opened: OpenedTransport | undefined;
  private subscription: McpSubscription | undefined;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private connecting: Promise<void> | undefined;
  /** Bumped on every start/stop so callbacks of an older attempt know they are stale. */
  private generation = 0;
  private readonly inFlight = new Set<AbortController>();
  private disposed = false;
  private readonly now: () => number;

  /** The registry's "transport": "sse" hint: the person's choice, never probed, never cached. */
  private readonly configuredSse: boolean;

  constructor(
    readonly name: string,
    readonly spec: LaunchSpec,
    private readonly deps: ConnectionDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.configuredSse = spec.transport === 'http' && spec.legacySse;
  }

  get state(): ConnectionState {
    return this._state;
  }
  get info(): ConnectionInfo {
    return this._info;
  }
  get catalog(): Catalog {
    return this._catalog;
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

  /**
   * Runs one connect attempt as "the" attempt in flight. A stop() forgets it (its callbacks are
   * stale by generation), so a start() right after a stop() begins a fresh attempt instead of
   * waiting on the abandoned one.
   */
  private launch(run: () => Promise<void>): Promise<void> {
    const attempt: Promise<void> = run().finally(() => {
      if (this.connecting === attempt) this.connecting = undefined;
    });
    this.connecting = attempt;
    return attempt;
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
    this.generation++;
    this.connecting = undefined;
    this.clearRestartTimer();
    await this.teardown();
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
    this.generation++;
    this.clearRestartTimer();
    for (const controller of this.inFlight) controller.abort(new HarborError('CANCELLED', 'Harbor is shutting down.'));
    await this.teardown();
    this._state = { kind: 'stopped' };
  }

  // ------------------------------------------------------------------------------------------
  // Connecting

  private async connect(isRestart: boolean, signInBudget = MAX_REAUTHORIZATIONS): Promise<void> {
    const generation = ++this.generation;
    this.setState({ kind: 'starting' });
    this.deps.restartPolicy.recordStart(this.now());
    const hash = this.configHash;
    // HTTP+SSE predates 2026-07-28: nothing to probe, the era is legacy by definition. A remote
    // found to be HTTP+SSE-only before (same URL and headers) is not asked in Streamable HTTP again.
    const cached = this.configuredSse ? undefined : await this.deps.eraCache.get(this.name, hash);
    const legacySse = this.configuredSse || (this.spec.transport === 'http' && cached?.legacySse === true);
    const prior = this.configuredSse ? { kind: 'legacy' as const } : cached?.prior;
    try {
      await this.deps.authorizeLaunch?.(this.spec);
      if (generation !== this.generation) return;
      // Secret values exist only in this local spec and the transport: `this.spec` keeps the references.
      const spec = this.deps.prepareLaunch ? await this.deps.prepareLaunch(this.spec) : this.spec;
      if (generation !== this.generation) return;
      // OAuth: wherever establishing the connection runs into a sign-in (the probe, the first
      // list), it is finished here and everything runs again on a NEW transport.
      this.signInsLeft = signInBudget;
      for (;;) {
        try {
          await this.establish(generation, prior, legacySse, spec, hash);
          break;
        } catch (error) {
          if (generation !== this.generation) return;
          await this.signInOrThrow(error, signInBudget);
          if (generation !== this.generation) return;
        }
      }
      if (generation !== this.generation) return;
      this.setState({ kind: 'ready' });
    } catch (error) {
      if (generation !== this.generation) return;
      // Close first, then read: once the process is gone its last stderr lines are in the ring.
      const opened = this.opened;
      await this.teardown();
      const failure = this.failure(error, 'connecting', false, opened);
      if (isRestart) this.scheduleRestart(failure);
      else this.setError(failure);
    }
  }

  /** Sign-ins the current operation may still go through: a transport opened now may start one only if > 0. */
  private signInsLeft = MAX_REAUTHORIZATIONS;

  /**
   * One attempt at a working connection: open (with the era and transport fallbacks), read the
   * server's info and full catalog, listen for changes. An authorization failure keeps its
   * transport open: the sign-in it started is redeemed on it (`signInOrThrow`).
   */
  private async establish(generation: number, prior: PriorDiscovery | undefined, legacySse: boolean, spec: LaunchSpec, hash: string): Promise<void> {
    // Whether this attempt learned something the cache should keep (a probe, a fallback).
    let learned = !prior;
    let probe: ProbeOutcome;
    try {
      probe = await this.open(prior, legacySse, spec);
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.opened?.auth?.authFailure(error)) throw error;
      await this.teardown();
      const retry = this.retryPlan(error, prior, legacySse);
      if (!retry) throw error;
      prior = retry.prior;
      legacySse = retry.legacySse;
      learned = true;
      if (retry.forgetEra) await this.deps.eraCache.forget(this.name);
      probe = await this.open(prior, legacySse, spec);
    }
    if (generation !== this.generation) return;
    const client = this.client!;
    const era = client.getProtocolEra() ?? 'legacy';
    const discover = client.getDiscoverResult();
    // Legacy only because the probe was answered too late (a server still starting up) is not a
    // finding about the server: the next connect asks again (see ProbeOutcome).
    const onlySlow = era === 'legacy' && probe.answeredLate;
    if (learned && !this.configuredSse && !onlySlow) {
      await this.deps.eraCache.set(this.name, hash, era === 'modern' && discover ? { era, discover } : { era: 'legacy', sse: legacySse });
    }
    const serverInfo = client.getServerVersion();
    const instructions = client.getInstructions();
    const capabilities = client.getServerCapabilities();
    const protocolVersion = client.getNegotiatedProtocolVersion();
    this._info = {
      era,
      ...(protocolVersion ? { protocolVersion } : {}),
      ...(serverInfo ? { serverInfo: { name: serverInfo.name, version: serverInfo.version } } : {}),
      ...(instructions ? { instructions } : {}),
      ...(capabilities ? { capabilities } : {}),
    };
    this.infoGeneration = generation;
    // Changes announced before this point (legacy servers send list_changed right after
    // initialize) are covered: this full fetch is queued behind them and runs last.
    await this.refreshCatalog(undefined, { emit: false });
    if (generation !== this.generation) return;
    await this.listen(generation);
  }

  /**
   * OAuth sign-in after a failed attempt: when the server needs authorization and a sign-in was
   * allowed, the session has opened the browser; wait for the loopback callback (state checked by
   * Harbor), redeem the code on that transport and close it, so the caller connects again on a
   * NEW transport — at most MAX_REAUTHORIZATIONS times per operation. With no sign-in allowed (a
   * background connect) this throws AUTH_REQUIRED: the person signs in with "Sign in" /
   * `harbor login`. Anything that is not about authorization is rethrown as is.
   */
  private async signInOrThrow(error: unknown, budget: number): Promise<void> {
    const auth = this.opened?.auth;
    const failure = auth?.authFailure(error);
    if (!auth || !failure) throw error;
    if (!auth.signInPending()) throw budget > 0 && this.signInsLeft <= 0 ? this.signInsExhausted(failure) : failure;
    this.signInsLeft--;
    await auth.completeSignIn();
    await this.teardown();
  }

  private signInsExhausted(failure: HarborError): HarborError {
    if (failure.code !== 'AUTH_REQUIRED') return failure;
    return new HarborError(
      'AUTH_FAILED',
      `"${this.name}" still asks for authorization after ${MAX_REAUTHORIZATIONS} sign-ins in a row; Harbor stopped asking. The server may need permissions the authorization server does not grant you.`,
      undefined,
      { cause: failure },
    );
  }

  /**
   * One transport + client, connected. Leaves `this.client`/`this.opened` set on success and
   * returns how the era probe went on the wire.
   */
  private async open(prior: PriorDiscovery | undefined, legacySse: boolean, spec: LaunchSpec): Promise<ProbeOutcome> {
    const generation = this.generation;
    const opened = this.deps.openTransport(spec, { legacySse, server: this.name });
    this.opened = opened;
    opened.auth?.allowSignIn(this.signInsLeft > 0);
    const probe = new ProbeOutcome();
    // Watched until connect returns; after that the tap only records.
    let watching: ProbeOutcome | undefined = probe;
    const transport = tapTransport(opened.transport, (direction, message) => {
      this.deps.traffic.record(this.name, direction, message);
      watching?.observe(direction, message);
    });
    const client = createMcpClient({
      clientInfo: this.deps.clientInfo,
      // On stdio a silent probe means legacy, so a short wait is right; on HTTP silence is an
      // outage (the SDK fails instead of falling back), so the probe gets the connect timeout.
      probeTimeoutMs: this.spec.transport === 'stdio' ? this.deps.probeTimeoutMs : this.deps.connectTimeoutMs,
      elicit: this.deps.elicit,
    });
    this.client = client;
    for (const [method, kinds] of Object.entries(LIST_CHANGED)) {
      client.setNotificationHandler(method as keyof typeof LIST_CHANGED, () => {
        if (generation === this.generation) void this.refreshCatalog(kinds).catch(() => undefined);
      });
    }
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      if (generation === this.generation) this.deps.onChange({ kind: 'resourceUpdated', uri: notification.params.uri });
    });
    await client.connect(transport, { timeout: this.deps.connectTimeoutMs, ...(prior ? { prior } : {}) });
    watching = undefined;
    // After connect: an unexpected close from here on is a crash (or a dropped remote).
    client.onclose = () => {
      if (generation === this.generation) this.onUnexpectedClose();
    };
    transport.onerror = (error: Error) => {
      if (generation === this.generation) this.onTransportError(error);
    };
    return probe;
  }

  /**
   * What to try after a failed first attempt: a cached verdict that no longer holds is dropped
   * and the server probed again; a remote that refuses Streamable HTTP the way legacy HTTP+SSE
   * servers do (400/404/405 without a modern error body) is retried over SSE; a stdio server that
   * died on the unknown `server/discover` probe (older SDKs exit on any pre-initialize request)
   * is relaunched as legacy.
   */
  private retryPlan(error: unknown, prior: unknown, legacySse: boolean): { prior: undefined | { kind: 'legacy' }; legacySse: boolean; forgetEra: boolean } | undefined {
    // Sign-in problems are not transport problems: probing again would only ask for sign-in again.
    if (error instanceof HarborError && (error.code === 'AUTH_REQUIRED' || error.code === 'AUTH_FAILED')) return undefined;
    // A cached verdict that no longer holds (the server was upgraded, or moved off HTTP+SSE):
    // forget it and probe from scratch. A configured "sse" hint is the person's and stays.
    if (prior && !this.configuredSse) return { prior: undefined, legacySse: false, forgetEra: true };
    const message = error instanceof Error ? error.message : String(error);
    if (this.spec.transport === 'http' && !legacySse) {
      // The spec's rule: 400/404/405 whose body is not a modern JSON-RPC error (that would have
      // surfaced as a ProtocolError) means an endpoint that predates Streamable HTTP.
      const status = (error as { status?: number }).status;
      if ((status === 400 || status === 404 || status === 405) && !(error instanceof ProtocolError)) {
        return { prior: { kind: 'legacy' }, legacySse: true, forgetEra: false };
      }
    }
    if (this.spec.transport === 'stdio' && /closed during the server\/discover probe/.test(message)) {
      return { prior: { kind: 'legacy' }, legacySse: false, forgetEra: false };
    }
    return undefined;
  }

  private async listen(generation: number): Promise<void> {
    const client = this.client;
    const caps = this._info.capabilities;
    if (!client || this._info.era !== 'modern' || !caps) return;
    const filter = {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    try {
      const subscription = await client.listen(filter, { timeout: this.deps.connectTimeoutMs });
      this.subscription = subscription;
      void subscription.closed.then((how) => {
        // The stream ended without a response: listen again (a new request id) while we are live.
        if (how === 'remote' && generation === this.generation && this._state.kind === 'ready') {
          void this.listen(generation).then(() => this.refreshCatalog());
        }
      });
    } catch {
      // A server that advertises listChanged but refuses listen still works; changes show on reconnect.
    }
  }

  /**
   * Refetches (all pages) the given parts of the catalog, or all of them. Refreshes run one after
   * another so an older answer never overwrites a newer one, and a change announced before the
   * first full fetch (legacy servers send list_changed right after initialize) waits for it.
   */
  refreshCatalog(kinds?: readonly CatalogKind[], options: { emit?: boolean } = {}): Promise<void> {
    const run = this.refreshQueue.then(() => this.fetchCatalog(kinds, options));
    this.refreshQueue = run.catch(() => undefined);
    return run;
  }

  private refreshQueue: Promise<void> = Promise.resolve();
  /** The generation whose server info (era, capabilities) `_info` holds. */
  private infoGeneration = -1;

  private async fetchCatalog(kinds: readonly CatalogKind[] | undefined, options: { emit?: boolean }): Promise<void> {
    const client = this.client;
    // Before this connection's info is known (mid-connect) there is nothing to compare against.
    if (!client || this.infoGeneration !== this.generation) return;
    const caps = this._info.capabilities ?? {};
    const want = (kind: CatalogKind) => !kinds || kinds.includes(kind);
    const opts = { timeout: this.deps.connectTimeoutMs, cacheMode: kinds ? ('refresh' as const) : ('use' as const) };
    const [tools, resources, resourceTemplates, prompts] = await Promise.all([
      want('tools') ? (caps.tools ? client.listTools(undefined, opts).then((r) => r.tools) : []) : this._catalog.tools,
      want('resources') ? (caps.resources ? client.listResources(undefined, opts).then((r) => r.resources) : []) : this._catalog.resources,
      want('resourceTemplates')
        ? caps.resources
          ? client.listResourceTemplates(undefined, opts).then((r) => r.resourceTemplates, () => [])
          : []
        : this._catalog.resourceTemplates,
      want('prompts') ? (caps.prompts ? client.listPrompts(undefined, opts).then((r) => r.prompts) : []) : this._catalog.prompts,
    ]);
    if (client !== this.client) return;
    const next: Catalog = { tools, resources, resourceTemplates, prompts };
    const changed = diffCatalog(this._catalog, next);
    this._catalog = next;
    if (options.emit !== false && changed.length > 0) this.deps.onChange({ kind: 'catalog', changed });
  }

  // ------------------------------------------------------------------------------------------
  // Crashes and restarts

  private onUnexpectedClose(): void {
    if (this.disposed || this._state.kind === 'stopped') return;
    const failure = this.failure(new Error('Connection closed'), 'running');
    for (const controller of this.inFlight) controller.abort(failure);
    this.generation++;
    void this.teardown().then(() => this.scheduleRestart(failure));
  }

  /**
   * SDK 2.4.0 does not fail a pending request when its Streamable HTTP response stream drops
   * (it waits for the 60 s timeout). The spec says that request is lost: fail it now.
   */
  private onTransportError(error: Error): void {
    if (this.spec.transport !== 'http') return;
    if (!/disconnected|terminated|stream|socket|ECONNRESET/i.test(error.message)) return;
    const failure = new HarborError('CONNECTION_CLOSED', `"${this.name}" dropped the response stream: ${error.message}. The request was lost; try again.`);
    for (const controller of this.inFlight) controller.abort(failure);
  }

  private scheduleRestart(failure: HarborError): void {
    if (this.disposed) return;
    const next = this.deps.restartPolicy.next(this.now());
    if (!next) {
      this.setError(failure);
      return;
    }
    const generation = this.generation;
    this.setState({ kind: 'restarting', attempt: next.attempt, maxAttempts: this.deps.restartPolicy.maxAttempts, nextAt: next.nextAt });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (generation !== this.generation || this.disposed) return;
      if (!this.connecting) void this.launch(() => this.connect(true));
    }, next.delayMs);
    this.restartTimer.unref?.();
  }

  private clearRestartTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private async teardown(): Promise<void> {
    const client = this.client;
    const opened = this.opened;
    const subscription = this.subscription;
    this.client = undefined;
    this.opened = undefined;
    this.subscription = undefined;
    if (client) client.onclose = undefined;
    await subscription?.close().catch(() => undefined);
    await client?.close().catch(() => undefined);
    // The client closes its transport; closing again makes sure a half-open one (failed connect) ends too.
    await opened?.transport.close().catch(() => undefined);
  }

  private failure(error: unknown, action: string, userAborted = false, opened = this.opened): HarborError {
    const stderrTail = opened?.stderrTail();
    const exit = opened?.exitDescription();
    return toHarborError(error, {
      server: this.name,
      action,
      ...(stderrTail ? { stderrTail } : {}),
      ...(exit ? { exit } : {}),
      userAborted,
    });
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
      client.getPrompt({ name, ...(args ? { arguments: args } : {}) }, requestOptions),
    );
  }

  /** `completion/complete`, when the server offers completions; otherwise no suggestions. */
  async complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
    await this.whenReady();
    if (!this._info.capabilities?.completions || !this.client) return { values: [] };
    try {
      const result = await this.client.complete(
        { ref, argument, ...(context ? { context: { arguments: context } } : {}) },
        { timeout: this.deps.connectTimeoutMs },
      );
      const { values, total, hasMore } = result.completion;
      return { values: values.slice(0, 100), ...(total !== undefined ? { total } : {}), ...(hasMore !== undefined ? { hasMore } : {}) };
    } catch (error) {
      throw this.failure(error, `completing ${argument.name}`);
    }
  }

  /** Legacy servers: `resources/subscribe`; modern: a listen stream with resourceSubscriptions. */
  async subscribeResources(uris: readonly string[], signal: AbortSignal): Promise<void> {
    await this.whenReady();
    const client = this.client!;
    if (!this._info.capabilities?.resources?.subscribe || uris.length === 0) return;
    if (this._info.era === 'modern') {
      const sub = await client.listen({ resourceSubscriptions: [...uris] }, { signal });
      signal.addEventListener('abort', () => void sub.close(), { once: true });
    } else {
      await Promise.all(uris.map((uri) => client.subscribeResource({ uri }, { signal }).catch(() => undefined)));
    }
  }

  /**
   * One request, with OAuth: a call that runs into a sign-in (expired grant, step-up to more
   * scopes) finishes that sign-in when one was allowed and retries on a new connection, at most
   * MAX_REAUTHORIZATIONS times. When none was allowed, the connection drops to
   * error{AUTH_REQUIRED} so the app shows "Sign in" and the CLI says `harbor login`.
   */
  private async request<T>(
    action: string,
    options: CallOptions,
    run: (client: Client, requestOptions: Parameters<Client['callTool']>[1] & object) => Promise<T>,
  ): Promise<T> {
    for (let signIns = 0; ; ) {
      try {
        return await this.requestOnce(action, options, run, MAX_REAUTHORIZATIONS - signIns);
      } catch (error) {
        if (!(error instanceof SignInNeeded)) throw error;
        const { auth, failure } = error;
        if (!auth.signInPending()) {
          const final = signIns >= MAX_REAUTHORIZATIONS ? this.signInsExhausted(failure) : failure;
          if (final.code === 'AUTH_REQUIRED') await this.dropForSignIn(final);
          throw final;
        }
        signIns++;
        try {
          await auth.completeSignIn();
        } catch (signInError) {
          if (signInError instanceof HarborError && signInError.code === 'AUTH_REQUIRED') await this.dropForSignIn(signInError);
          throw signInError;
        }
        await this.reconnectAfterSignIn(MAX_REAUTHORIZATIONS - signIns);
      }
    }
  }

  /** The connection cannot work without a sign-in: its state says so (the app's "Sign in" action). */
  private async dropForSignIn(failure: HarborError): Promise<void> {
    this.generation++;
    this.clearRestartTimer();
    await this.teardown();
    this.setError(failure);
  }

  /** After a sign-in: a new transport with the new tokens (the SDK's advice), then the call again. */
  private async reconnectAfterSignIn(signInBudget: number): Promise<void> {
    this.generation++;
    this.connecting = undefined;
    this.clearRestartTimer();
    await this.teardown();
    await this.launch(() => this.connect(false, signInBudget));
  }

  private async requestOnce<T>(
    action: string,
    options: CallOptions,
    run: (client: Client, requestOptions: Parameters<Client['callTool']>[1] & object) => Promise<T>,
    signInsLeft: number,
  ): Promise<T> {
    // The hot path of every call: a ready connection skips the start() round trip.
    if (this._state.kind !== 'ready') await this.whenReady();
    this.opened?.auth?.allowSignIn(signInsLeft > 0);
    const auth = this.opened?.auth;
    const client = this.client;
    if (!client) throw new HarborError('CONNECTION_CLOSED', `"${this.name}" is not connected.`);
    const controller = new AbortController();
    const onUserAbort = () => controller.abort(options.signal?.reason ?? new Error('cancelled'));
    if (options.signal?.aborted) onUserAbort();
    options.signal?.addEventListener('abort', onUserAbort, { once: true });
    // SDK 2.4.0's maxTotalTimeout rejects without telling the server; our own hard ceiling aborts
    // the request, which sends notifications/cancelled (stdio) or closes the stream (HTTP).
    let hardTimeout: ReturnType<typeof setTimeout> | undefined;
    let hitHardTimeout = false;
    if (options.maxTotalMs !== undefined) {
      hardTimeout = setTimeout(() => {
        hitHardTimeout = true;
        controller.abort(new Error(`Maximum total time of ${options.maxTotalMs} ms exceeded`));
      }, options.maxTotalMs);
    }
    this.inFlight.add(controller);
    try {
      return await run(client, {
        signal: controller.signal,
        timeout: options.timeoutMs ?? 60_000,
        resetTimeoutOnProgress: true,
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      });
    } catch (error) {
      const reason: unknown = controller.signal.reason;
      if (reason instanceof HarborError) throw reason;
      if (hitHardTimeout) throw new HarborError('TIMEOUT', `"${this.name}" did not finish ${action} within ${options.maxTotalMs} ms; the request was cancelled.`);
      const authFailure = options.signal?.aborted ? undefined : auth?.authFailure(error);
      if (auth && authFailure) throw new SignInNeeded(auth, authFailure);
      throw this.failure(error, action, options.signal?.aborted === true);
    } finally {
      if (hardTimeout) clearTimeout(hardTimeout);
      options.signal?.removeEventListener('abort', onUserAbort);
      this.inFlight.delete(controller);
    }
  }

  /** For status lines: the connection's recent stderr. */
  stderrTail(): string {
    return this.opened?.stderrTail() ?? '';
  }
}

/** A request failed for want of authorization: `request` decides between signing in and AUTH_REQUIRED. */
class SignInNeeded extends Error {
  constructor(
    readonly auth: TransportAuth,
    readonly failure: HarborError,
  ) {
    super(failure.message);
  }
}
