import type { Implementation, jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { ServerSummary, SignInStatus } from '../../../preload/contract';
import { HarborError } from '../errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { serverEntryProblems } from '../registry/entry-problems';
import { cannotStartMessage } from '../registry/placeholders';
import { lookalikeProblems } from '../registry/lookalike';
import { sandboxRules } from '../registry/sandbox-config';
import { isStdio, type ServerConfig } from '../registry/schema';
import { RestartPolicy, type RestartPolicyOptions } from './backoff';
import { declaredFeaturesOf, FEATURE_FIELDS, type ServerFeatures } from './client-features';
import { ServerConnection } from './connection';
import { LastFailure } from './last-failure';
import type { CatalogKind } from './catalog';
import type { ConnectionChange, TransportFactory } from './connection-types';
import type { ElicitationBroker } from './elicitation';
import type { EraCache } from './era-cache';
import { describeLaunch, resolveLaunch, type LaunchSpec, type LaunchVariables } from './launch';
import type { TrafficLog } from './traffic';
import type { LogSink } from '../log/harbor-log';
import { canonical } from '../canonical-json';

export interface ServerManagerDeps {
  readonly clientInfo: Implementation;
  readonly eraCache: EraCache;
  readonly traffic: TrafficLog;
  readonly openTransport: TransportFactory;
  readonly elicitation: ElicitationBroker;
  readonly variables: LaunchVariables;
  readonly probeTimeoutMs: number;
  readonly connectTimeoutMs: number;
  /** The lists each connect fetches (default: all): a one-shot command's needs. */
  readonly catalogOnConnect?: readonly CatalogKind[];
  readonly restart?: RestartPolicyOptions;
  readonly onChange: (server: string, change: ConnectionChange) => void;
  /** Launch consent: resolves when the person approved starting (stdio) or reaching (remote) the server as configured (`config`, as written). */
  readonly authorizeLaunch?: (server: string, trusted: boolean, spec: LaunchSpec, config: ServerConfig) => Promise<void>;
  /** Resolves a launch's `${secret:…}` references just before it opens. */
  readonly prepareLaunch?: (server: string, spec: LaunchSpec, config: ServerConfig) => Promise<LaunchSpec>;
  /** Sampling, roots and logging offered to a server (absent: elicitation only). */
  readonly features?: (server: string) => ServerFeatures;
  /** Checks tools' structured results, for every connection (ConnectionDeps.outputValidator). */
  readonly outputValidator?: jsonSchemaValidator;
  /** Harbor's own log, handed to every connection. */
  readonly log?: LogSink;
  /** A remote server's sign-in as the person sees it (the auth folder implements it). */
  readonly signInStatus?: (server: string) => SignInStatus | undefined;
}

/** What applying a registry did: entries that changed, and servers started, restarted and stopped because of it. */
export interface AppliedChanges {
  readonly changed: readonly string[];
  readonly started: readonly string[];
  readonly restarted: readonly string[];
  readonly stopped: readonly string[];
}

interface Entry {
  readonly config: ServerConfig;
  readonly connection?: ServerConnection;
  /** A config problem that keeps this server from being launched at all. */
  readonly problem?: HarborError;
  /** Its connection's last real failure, shown beside a later launch question. */
  readonly lastFailure?: LastFailure;
}

/**
 * Fields that do not change what is launched or reached: editing them keeps a server running. Of
 * the client features only what is declared (sampling offered at all, roots at all) needs a new connection.
 */
const RUNTIME_ONLY = new Set<string>(['trusted', 'timeoutMs', 'disabledTools', ...FEATURE_FIELDS]);

function launchShape(config: ServerConfig): Record<string, unknown> {
  return { ...Object.fromEntries(Object.entries(config).filter(([key]) => !RUNTIME_ONLY.has(key))), declared: declaredFeaturesOf(config) };
}

/** Owns one ServerConnection per configured server; starts and stops them in parallel. */
export class ServerManager implements Disposable {
  private readonly entries = new Map<string, Entry>();

  constructor(
    servers: ReadonlyMap<string, ServerConfig>,
    private readonly deps: ServerManagerDeps,
  ) {
    trackDisposable(this);
    for (const [name, config] of servers) this.entries.set(name, this.createEntry(name, config));
  }

  private createEntry(name: string, config: ServerConfig): Entry {
    // Started as written it would get another app's placeholders as literal text: not started at all.
    const problems = serverEntryProblems(config);
    if (problems.length > 0) {
      return { config, problem: new HarborError('CONFIG_INVALID', cannotStartMessage(name, problems)) };
    }
    try {
      const spec = resolveLaunch(name, config, this.deps.variables);
      const lastFailure = new LastFailure();
      const connection = new ServerConnection(name, spec, {
        clientInfo: this.deps.clientInfo,
        eraCache: this.deps.eraCache,
        traffic: this.deps.traffic,
        openTransport: this.deps.openTransport,
        elicit: (request, ctx) => this.deps.elicitation.handle(name, request, ctx),
        pageDone: (elicitationId) => this.deps.elicitation.complete(name, elicitationId),
        restartPolicy: new RestartPolicy(this.deps.restart),
        probeTimeoutMs: config.probeTimeoutMs ?? this.deps.probeTimeoutMs,
        connectTimeoutMs: this.deps.connectTimeoutMs,
        ...(this.deps.catalogOnConnect ? { catalogOnConnect: this.deps.catalogOnConnect } : {}),
        onChange: (change) => {
          if (change.kind === 'state') lastFailure.note(change.state);
          this.deps.onChange(name, change);
        },
        ...(this.deps.log ? { log: this.deps.log } : {}),
        ...(this.deps.authorizeLaunch ? { authorizeLaunch: (launch: LaunchSpec) => this.deps.authorizeLaunch!(name, this.entries.get(name)?.config.trusted === true, launch, config) } : {}),
        ...(this.deps.prepareLaunch ? { prepareLaunch: (launch: LaunchSpec) => this.deps.prepareLaunch!(name, launch, config) } : {}),
        ...(this.deps.features ? { features: this.deps.features(name) } : {}),
        ...(this.deps.outputValidator ? { outputValidator: this.deps.outputValidator } : {}),
      });
      return { config, connection, lastFailure };
    } catch (error) {
      if (error instanceof HarborError) return { config, problem: error };
      throw error;
    }
  }

  /**
   * Brings the set of connections in line with a new registry: unchanged servers keep running,
   * removed ones stop, added or changed ones are (re)created — and started if their predecessor
   * was running. With `startNew` (the Host keeps its enabled servers running: the app, browser
   * mode) an enabled server also starts when it is new, was off, or had failed: whichever way the
   * registry was edited, what is enabled runs; only a server the person stopped stays stopped.
   * Restarts are awaited; fresh starts are not (a launch may wait for the person's consent).
   */
  async apply(servers: ReadonlyMap<string, ServerConfig>, options: { readonly startNew?: boolean } = {}): Promise<AppliedChanges> {
    const changes = { changed: [] as string[], started: [] as string[], restarted: [] as string[], stopped: [] as string[] };
    const stops: Promise<void>[] = [];
    const restarts: ServerConnection[] = [];
    const starts: ServerConnection[] = [];
    for (const [name, entry] of this.entries) {
      const next = servers.get(name);
      if (next && canonical(next) === canonical(entry.config)) continue;
      changes.changed.push(name);
      if (next && entry.connection && canonical(launchShape(next)) === canonical(launchShape(entry.config))) {
        // Only Harbor's own switches changed (trust, timeout, disabled tools): the running
        // server keeps running; they are read from the current entry when next needed.
        this.entries.set(name, { ...entry, config: next });
        const changedField = (key: 'roots' | 'logLevel') => canonical(next[key] ?? null) !== canonical(entry.config[key] ?? null);
        void entry.connection
          .featuresChanged({ roots: changedField('roots'), logLevel: changedField('logLevel') })
          .catch((error: unknown) => this.deps.log?.write('warn', { area: 'servers', server: name, message: 'telling the running server its roots or log level changed failed', error }));
        continue;
      }
      this.entries.delete(name);
      const before = entry.connection?.state.kind;
      const wasLive = before !== undefined && before !== 'stopped' && before !== 'error';
      if (entry.connection) stops.push(entry.connection.dispose());
      if (!next) {
        if (wasLive) changes.stopped.push(name);
        continue;
      }
      const fresh = this.createEntry(name, next);
      this.entries.set(name, fresh);
      if (!fresh.connection || next.enabled === false) {
        if (wasLive) changes.stopped.push(name);
      } else if (wasLive) {
        restarts.push(fresh.connection);
        changes.restarted.push(name);
      } else if (options.startNew && (entry.config.enabled === false || !entry.connection || before === 'error')) {
        // Turned on, fixed after a config problem, or edited after it failed: it gets its start.
        starts.push(fresh.connection);
        changes.started.push(name);
      }
    }
    for (const [name, config] of servers) {
      if (this.entries.has(name)) continue;
      changes.changed.push(name);
      const entry = this.createEntry(name, config);
      this.entries.set(name, entry);
      if (options.startNew && entry.connection && config.enabled !== false) {
        starts.push(entry.connection);
        changes.started.push(name);
      }
    }
    await Promise.allSettled(stops);
    for (const connection of starts) void connection.start();
    await Promise.all(restarts.map((c) => c.start()));
    return changes;
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The connection of an enabled, launchable server, or a HarborError saying why not. */
  connection(name: string): ServerConnection {
    const entry = this.entries.get(name);
    if (!entry) {
      throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}". Known servers: ${this.names().join(', ') || '(none)'}.`);
    }
    if (entry.problem) throw entry.problem;
    if (entry.config.enabled === false) {
      throw new HarborError('SERVER_DISABLED', `Server "${name}" is disabled. Set "enabled": true in the registry to use it.`);
    }
    return entry.connection!;
  }

  /** Connects every enabled server in parallel; resolves when each is ready or in error. */
  async startAll(): Promise<void> {
    await Promise.all(
      [...this.entries.values()].map((e) => (e.connection && e.config.enabled !== false ? e.connection.start() : undefined)),
    );
  }

  summary(name: string): ServerSummary {
    const entry = this.entries.get(name);
    if (!entry) throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}".`);
    const { config, connection, problem, lastFailure } = entry;
    const stdio = 'command' in config;
    const info = connection?.info ?? {};
    const catalog = connection?.catalog;
    const lookalike = lookalikeProblems(name, stdio ? undefined : String((config as { url: string }).url));
    const signIn = stdio ? undefined : this.deps.signInStatus?.(name);
    const lastError = connection ? lastFailure?.beside(connection.state) : undefined;
    return {
      name,
      transport: stdio ? 'stdio' : 'http',
      enabled: config.enabled ?? true,
      trusted: config.trusted ?? false,
      target: connection ? describeLaunch(connection.spec) : stdio ? String(config.command) : String((config as { url: string }).url),
      ...(isStdio(config) ? { sandboxed: sandboxRules(config.sandbox) !== undefined } : {}),
      state: problem
        ? { kind: 'error', code: problem.code, message: problem.message, stderrTail: '' }
        : (connection?.state ?? { kind: 'stopped' }),
      ...(info.era ? { era: info.era } : {}),
      ...(info.protocolVersion ? { protocolVersion: info.protocolVersion } : {}),
      ...(info.serverInfo ? { serverInfo: info.serverInfo } : {}),
      ...(info.capabilities ? { capabilities: capabilityNames(info.capabilities) } : {}),
      counts: {
        tools: catalog?.tools.length ?? 0,
        resources: catalog?.resources.length ?? 0,
        resourceTemplates: catalog?.resourceTemplates.length ?? 0,
        prompts: catalog?.prompts.length ?? 0,
      },
      ...(connection?.stale ? { stale: connection.stale } : {}),
      ...(lookalike.length ? { lookalike } : {}),
      ...(signIn ? { signIn } : {}),
      ...(lastError ? { lastError } : {}),
    };
  }

  summaries(): ServerSummary[] {
    return this.names().map((name) => this.summary(name));
  }

  /** Stops every server in parallel through its stop ladder. */
  async dispose(): Promise<void> {
    markAsDisposed(this);
    const connections = [...this.entries.values()].flatMap((e) => (e.connection ? [e.connection] : []));
    this.entries.clear();
    const results = await Promise.allSettled(connections.map((c) => c.dispose()));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length > 0) throw new AggregateError(failed.map((f) => f.reason as unknown), 'Some servers did not stop cleanly');
  }
}

/** A server's declared capabilities as dotted names ("resources", "resources.subscribe"), for people to read. */
function capabilityNames(capabilities: object): string[] {
  const names: string[] = [];
  for (const [key, value] of Object.entries(capabilities)) {
    if (value === undefined || value === null || value === false) continue;
    names.push(key);
    if (typeof value === 'object' && key !== 'experimental') {
      for (const [sub, on] of Object.entries(value as Record<string, unknown>)) if (on === true) names.push(`${key}.${sub}`);
    }
  }
  return names;
}
