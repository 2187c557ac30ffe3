import type { LaunchFailureData, ServerSummary } from '../../../preload/contract';
import type { ConsentGate } from '../consent/gate';
import { headerNames } from '../consent/identity';
import type { LaunchTarget } from '../consent/launch-consent';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { ConnectionChange, ServerConnection } from '../servers/connection';
import { describeLaunch } from '../servers/launch';
import type { AppliedChanges, ServerManager, ServerManagerDeps } from '../servers/manager';
import { LaunchFailures } from './launch-failures';
import type { RegistryState } from './registry-state';
import type { ServerIdentities } from './server-identities';

export interface ServerControlDeps {
  readonly registry: RegistryState;
  readonly identities: ServerIdentities;
  readonly events: HostEvents;
  readonly consent: ConsentGate;
  /** Builds the manager, given where its changes go (services/server-launch.ts). */
  readonly createManager: (onChange: ServerManagerDeps['onChange']) => ServerManager;
}

/** What a launch approval covered: a command line, or a URL and the header names sent to it. */
export interface ApprovedLaunch {
  readonly server: string;
  readonly transport: 'stdio' | 'http';
  /** The command line, or the URL. */
  readonly target: string;
  readonly headerNames?: string[];
}

/**
 * Starts, stops and restarts the configured servers, keeps them in line with the registry, and
 * tells the front doors (`servers.changed`) what changed. Owns the ServerManager: disposing stops
 * every server through its stop ladder. A server that leaves the registry (removed, or changed
 * into another command or URL) takes every consent decision about it along, whichever way the
 * registry was edited.
 */
export class ServerControl implements Disposable {
  private readonly manager: ServerManager;
  /** The identities of the registry last applied (undefined before the first valid one). */
  private applied: Set<string> | undefined;
  /**
   * Set once a front door asks for the enabled servers to run (startAll: the app, browser mode).
   * From then on every registry edit — the form, the JSON editor, an import, a link — starts the
   * enabled servers it adds or turns on, the same way. The CLI never sets it: each command
   * connects only what it uses.
   */
  private keepRunning = false;
  private readonly failures: LaunchFailures;

  constructor(private readonly deps: ServerControlDeps) {
    this.manager = deps.createManager((name, change) => this.onChange(name, change));
    this.failures = new LaunchFailures(deps.events);
    trackDisposable(this);
  }

  /**
   * Brings the running connections in line with the registry: only what changed restarts, and
   * once the Host keeps its servers running, new or newly enabled servers start.
   */
  async apply(): Promise<AppliedChanges> {
    this.forgetRemovedServers();
    const changes = await this.manager.apply(this.deps.registry.servers, { startNew: this.keepRunning });
    for (const name of changes.changed) {
      if (this.manager.has(name)) this.deps.events.emit('servers.changed', { name, reason: 'config', summary: this.manager.summary(name) });
      else this.deps.events.emit('servers.changed', { name, reason: 'removed' });
    }
    return changes;
  }

  list(): ServerSummary[] {
    return this.manager.summaries();
  }

  get(name: string): ServerSummary {
    return this.manager.summary(name);
  }

  names(): string[] {
    return this.manager.names();
  }

  /** Connects every enabled server in parallel, and keeps doing so for servers added later; resolves when each is ready or in error. */
  async startAll(): Promise<void> {
    this.keepRunning = true;
    await this.manager.startAll();
  }

  /** Servers that could not be started since the Host began, oldest first. */
  launchFailures(): LaunchFailureData[] {
    return this.failures.list();
  }

  /** The person starts it (Start, Restart): a launch they denied earlier this run is asked about again. */
  async start(name: string): Promise<ServerSummary> {
    this.deps.consent.forgetLaunchDenial(this.launchTarget(name));
    await this.manager.connection(name).start();
    return this.get(name);
  }

  async stop(name: string): Promise<ServerSummary> {
    await this.manager.connection(name).stop();
    return this.get(name);
  }

  async restart(name: string): Promise<ServerSummary> {
    this.deps.consent.forgetLaunchDenial(this.launchTarget(name));
    await this.manager.connection(name).restart();
    return this.get(name);
  }

  /** Fetches the lists whose refresh failed again now; the summary carries the mark if they still fail. */
  async retryLists(name: string): Promise<ServerSummary> {
    await this.manager.connection(name).retryStaleLists();
    return this.get(name);
  }

  /** Connects the server if needed; resolves once it is ready, or throws why it cannot be reached. */
  async connect(name: string): Promise<ServerSummary> {
    await this.ready(name);
    return this.get(name);
  }

  /** Approves launching (stdio) or reaching (remote) a server exactly as configured now. */
  approveLaunch(name: string): ApprovedLaunch {
    const target = this.launchTarget(name);
    this.deps.consent.approveLaunch(target);
    const { spec } = target;
    return spec.transport === 'http'
      ? { server: name, transport: 'http', target: spec.url, headerNames: headerNames(target.config) }
      : { server: name, transport: 'stdio', target: describeLaunch(spec) };
  }

  /** A server's launch as the consent gate sees it: identity, trust, and what it runs or reaches. */
  launchTarget(name: string): LaunchTarget {
    const spec = this.manager.connection(name).spec;
    const { identity, config } = this.deps.identities.of(name);
    return { server: { name, identity }, trusted: config.trusted === true, config, spec };
  }

  /** The app's "Allow launch": the person approved this exact command line; start it now. */
  async approveLaunchAndStart(name: string): Promise<ServerSummary> {
    this.approveLaunch(name);
    return this.restart(name);
  }

  /** The last lines the server wrote to stderr (kept masked as they arrive); empty for a server that cannot run (disabled, misconfigured). */
  stderrTail(name: string): string {
    if (!this.manager.has(name)) return this.manager.connection(name).stderrTail(); // SERVER_NOT_FOUND, naming the known servers
    try {
      return this.manager.connection(name).stderrTail();
    } catch {
      return '';
    }
  }

  /** The connection of an enabled server, as it is now (not connecting it). */
  connection(name: string): ServerConnection {
    return this.manager.connection(name);
  }

  /** A connected server (connecting it if needed); throws its error if it cannot be reached. */
  async ready(name: string): Promise<ServerConnection> {
    const connection = this.manager.connection(name);
    if (connection.state.kind !== 'ready') await connection.whenReady();
    return connection;
  }

  private onChange(name: string, change: ConnectionChange): void {
    if ((change.kind === 'catalog' && change.changed.includes('tools')) || (change.kind === 'state' && change.state.kind === 'ready')) this.reviewTools(name);
    const summary = this.manager.has(name) ? this.manager.summary(name) : undefined;
    const base = { name, ...(summary ? { summary } : {}) };
    if (change.kind === 'state') {
      this.deps.events.emit('servers.changed', { ...base, reason: 'state' });
      // Every way into "error" ends a connect that did not succeed: a launch that failed.
      if (change.state.kind === 'error') this.failures.record(name, change.state);
    } else if (change.kind === 'catalog') this.deps.events.emit('servers.changed', { ...base, reason: 'catalog', changed: [...change.changed] });
    else if (change.kind === 'stale') this.deps.events.emit('servers.changed', { ...base, reason: 'stale' });
    else this.deps.events.emit('servers.changed', { ...base, reason: 'resourceUpdated', uri: change.uri });
  }

  /** A rug pull shows up as a changed definition of an approved tool: let the gate record it. */
  private reviewTools(name: string): void {
    if (!this.manager.has(name)) return;
    try {
      const server = this.deps.identities.find(name);
      if (server) this.deps.consent.reviewCatalog(server, this.manager.connection(name).catalog.tools);
    } catch {
      // A disabled or misconfigured server has no catalog to review.
    }
  }

  /**
   * Decisions about servers that are no longer in the registry go with them: a server added later
   * under the same name is another server. A registry with problems says nothing about what was
   * removed (it lists no servers at all), so nothing is forgotten then.
   */
  private forgetRemovedServers(): void {
    const now = this.deps.identities.current();
    if (!now) return;
    for (const identity of this.applied ?? []) if (!now.has(identity)) this.deps.consent.forget(identity);
    this.applied = now;
  }

  async dispose(): Promise<void> {
    markAsDisposed(this);
    await this.manager.dispose();
  }
}
