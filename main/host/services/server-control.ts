import type { ServerSummary } from '../../../preload/contract';
import type { ConsentGate } from '../consent/gate';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { ConnectionChange, ServerConnection } from '../servers/connection';
import type { ServerManager, ServerManagerDeps } from '../servers/manager';
import type { RegistryState } from './registry-state';

export interface ServerControlDeps {
  readonly registry: RegistryState;
  readonly events: HostEvents;
  readonly consent: ConsentGate;
  /** Builds the manager, given where its changes go (services/server-launch.ts). */
  readonly createManager: (onChange: ServerManagerDeps['onChange']) => ServerManager;
}

/**
 * Starts, stops and restarts the configured servers, keeps them in line with the registry, and
 * tells the front doors (`servers.changed`) what changed. Owns the ServerManager: disposing stops
 * every server through its stop ladder.
 */
export class ServerControl implements Disposable {
  private readonly manager: ServerManager;

  constructor(private readonly deps: ServerControlDeps) {
    this.manager = deps.createManager((name, change) => this.onChange(name, change));
    trackDisposable(this);
  }

  /** Brings the running connections in line with the registry: only what changed restarts. */
  async apply(): Promise<void> {
    const changed = await this.manager.apply(this.deps.registry.servers);
    for (const name of changed) {
      if (this.manager.has(name)) this.deps.events.emit('servers.changed', { name, reason: 'config', summary: this.manager.summary(name) });
      else this.deps.events.emit('servers.changed', { name, reason: 'removed' });
    }
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

  /** Connects every enabled server in parallel; resolves when each is ready or in error. */
  async startAll(): Promise<void> {
    await this.manager.startAll();
  }

  async start(name: string): Promise<ServerSummary> {
    await this.manager.connection(name).start();
    return this.get(name);
  }

  async stop(name: string): Promise<ServerSummary> {
    await this.manager.connection(name).stop();
    return this.get(name);
  }

  async restart(name: string): Promise<ServerSummary> {
    await this.manager.connection(name).restart();
    return this.get(name);
  }

  /** Connects the server if needed; resolves once it is ready, or throws why it cannot be reached. */
  async connect(name: string): Promise<ServerSummary> {
    await this.ready(name);
    return this.get(name);
  }

  /** Approves launching a server exactly as configured now; false when it needs no approval (nothing recorded). */
  approveLaunch(name: string): boolean {
    return this.deps.consent.approveLaunch(name, this.manager.connection(name).spec);
  }

  /** The app's "Allow launch": the person approved this exact command line; start it now. */
  async approveLaunchAndStart(name: string): Promise<ServerSummary> {
    this.approveLaunch(name);
    return this.restart(name);
  }

  /** The last lines the server wrote to stderr (kept masked as they arrive). */
  stderrTail(name: string): string {
    return this.manager.connection(name).stderrTail();
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
    if (change.kind === 'state') this.deps.events.emit('servers.changed', { ...base, reason: 'state' });
    else if (change.kind === 'catalog') this.deps.events.emit('servers.changed', { ...base, reason: 'catalog', changed: [...change.changed] });
    else this.deps.events.emit('servers.changed', { ...base, reason: 'resourceUpdated', uri: change.uri });
  }

  /** A rug pull shows up as a changed definition of an approved tool: let the gate record it. */
  private reviewTools(name: string): void {
    if (!this.manager.has(name)) return;
    try {
      this.deps.consent.reviewCatalog(name, this.manager.connection(name).catalog.tools);
    } catch {
      // A disabled or misconfigured server has no catalog to review.
    }
  }

  async dispose(): Promise<void> {
    markAsDisposed(this);
    await this.manager.dispose();
  }
}
