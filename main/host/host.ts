import { join } from 'node:path';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { AppInfo, ServerSummary } from '../../preload/contract';
import { HarborError } from './errors';
import { HostEvents } from './events';
import { DisposableStore, toDisposable, type Disposable } from './lifecycle';
import { RegistryStore, type LoadedRegistry } from './registry/store';
import type { RegistryFile, ServerConfig } from './registry/schema';
import type { RestartPolicyOptions } from './servers/backoff';
import type { Catalog } from './servers/catalog';
import type { CallOptions, ServerConnection, TransportFactory } from './servers/connection';
import { ElicitationBroker } from './servers/elicitation';
import { EraCache } from './servers/era-cache';
import type { LaunchVariables } from './servers/launch';
import { ServerManager } from './servers/manager';
import { LoginShellPath } from './servers/stdio/environment';
import { TrafficLog, createRedactor } from './servers/traffic';
import { createTransportFactory } from './servers/transports';

export interface HostOptions {
  readonly configPath: string;
  readonly dataDir: string;
  readonly appName: string;
  readonly appVersion: string;
  readonly mode: AppInfo['mode'];
  readonly electronVersion?: string;
  /** What a fresh install's registry holds (the bundled example server). */
  readonly defaultRegistry?: () => RegistryFile;
  /** `${harbor:node}` / `${harbor:resources}` for bundled servers. */
  readonly launchVariables: Omit<LaunchVariables, 'data'>;
  /** server/discover probe timeout before a stdio server is taken for legacy (default 4 s). */
  readonly probeTimeoutMs?: number;
  /** Connect and list timeout (default 30 s). */
  readonly connectTimeoutMs?: number;
  readonly restart?: RestartPolicyOptions;
  readonly stopGraces?: { stdinGraceMs: number; termGraceMs: number };
  /** Resolve the login shell's PATH for stdio servers (GUI launches lack it). Default: true except on Windows. */
  readonly useLoginShellPath?: boolean;
  /** Tests may inject transports; the default opens real processes and sockets. */
  readonly openTransport?: TransportFactory;
}

/** The registry the first launch writes: the bundled example server, working with no setup. */
export function defaultRegistry(): RegistryFile {
  return {
    mcpServers: {
      notes: {
        command: '${harbor:node}',
        args: ['${harbor:resources}/example-server/notes-server.mjs'],
        env: { HARBOR_NOTES_DIR: '${harbor:data}/notes' },
        trusted: true,
      },
    },
  };
}

/**
 * THE MCP host: the façade the three front doors (Electron IPC, CLI, browser mode) call.
 * It owns every long-lived thing through one DisposableStore; `dispose()` is the only teardown.
 */
export class Host implements Disposable {
  readonly events = new HostEvents();
  readonly traffic: TrafficLog;
  readonly elicitation = new ElicitationBroker();
  private readonly owned = new DisposableStore();
  private readonly registryStore: RegistryStore;
  private readonly eraCache: EraCache;
  private readonly loginPath = new LoginShellPath();
  private loginPathValue: string | undefined;
  private loginPathReady: Promise<void> = Promise.resolve();
  private registry: LoadedRegistry | undefined;
  private configProblems: string[] = [];
  private manager: ServerManager;

  private constructor(private readonly options: HostOptions) {
    this.registryStore = new RegistryStore(options.configPath, options.defaultRegistry);
    this.eraCache = new EraCache(join(options.dataDir, 'era-cache.json'));
    this.traffic = new TrafficLog(createRedactor(() => []));
    this.manager = this.createManager(new Map());
    this.owned.add(toDisposable(() => this.manager.dispose()));
  }

  /** Builds a Host and loads the registry. A bad registry file is reported, not fatal. */
  static async create(options: HostOptions): Promise<Host> {
    const host = new Host(options);
    await host.reloadRegistry();
    if (options.useLoginShellPath ?? process.platform !== 'win32') {
      // Resolved in the background: only launching a stdio server has to wait for it.
      host.loginPathReady = host.loginPath.resolve().then(
        (value) => {
          host.loginPathValue = value;
        },
        () => undefined,
      );
    }
    return host;
  }

  private createManager(servers: ReadonlyMap<string, ServerConfig>): ServerManager {
    const o = this.options;
    return new ServerManager(servers, {
      clientInfo: { name: 'harbor', version: o.appVersion },
      eraCache: this.eraCache,
      traffic: this.traffic,
      openTransport:
        o.openTransport ??
        createTransportFactory({
          loginPathValue: () => this.loginPathValue,
          ...(o.stopGraces ? { stopGraces: o.stopGraces } : {}),
        }),
      elicitation: this.elicitation,
      variables: { ...o.launchVariables, data: o.dataDir },
      probeTimeoutMs: o.probeTimeoutMs ?? 4_000,
      connectTimeoutMs: o.connectTimeoutMs ?? 30_000,
      ...(o.restart ? { restart: o.restart } : {}),
      onChange: (name, change) => {
        const summary = this.manager.has(name) ? this.manager.summary(name) : undefined;
        const base = { name, ...(summary ? { summary } : {}) };
        if (change.kind === 'state') this.events.emit('servers.changed', { ...base, reason: 'state' });
        else if (change.kind === 'catalog') this.events.emit('servers.changed', { ...base, reason: 'catalog', changed: [...change.changed] });
        else this.events.emit('servers.changed', { ...base, reason: 'resourceUpdated', uri: change.uri });
      },
    });
  }

  /** (Re)reads the registry file. Running servers are stopped and the new set is created stopped. */
  async reloadRegistry(): Promise<void> {
    try {
      this.registry = await this.registryStore.load();
      this.configProblems = [];
      if (this.registry.fresh && this.options.defaultRegistry) {
        // First launch: write the defaults so the person sees (and can edit) what Harbor runs.
        await this.registryStore.save(this.registry.file).catch(() => undefined);
      }
    } catch (error) {
      if (!(error instanceof HarborError)) throw error;
      this.configProblems = (error.detail ?? error.message).split('\n');
      this.registry = undefined;
    }
    const old = this.manager;
    this.manager = this.createManager(this.registry?.servers ?? new Map());
    await old.dispose();
  }

  /** Throws the file's problems (CLI: exit 2); the app shows them instead. */
  requireValidRegistry(): LoadedRegistry {
    if (!this.registry) {
      throw new HarborError(
        'CONFIG_INVALID',
        `${this.options.configPath} has problems:\n${this.configProblems.map((p) => `  ${p}`).join('\n')}\nFix the file (it was left untouched) and try again.`,
        this.configProblems.join('\n'),
      );
    }
    return this.registry;
  }

  appInfo(): AppInfo {
    return {
      name: this.options.appName,
      version: this.options.appVersion,
      mode: this.options.mode,
      configPath: this.options.configPath,
      dataDir: this.options.dataDir,
      platform: process.platform,
      versions: {
        node: process.versions.node,
        ...(this.options.electronVersion ? { electron: this.options.electronVersion } : {}),
      },
      configProblems: [...this.configProblems],
    };
  }

  // ------------------------------------------------------------------------------------------
  // Servers

  listServers(): ServerSummary[] {
    return this.manager.summaries();
  }

  getServer(name: string): ServerSummary {
    return this.manager.summary(name);
  }

  serverNames(): string[] {
    return this.manager.names();
  }

  /** Connects every enabled server in parallel; resolves when each is ready or in error. */
  async startAll(): Promise<void> {
    await this.loginPathReady;
    await this.manager.startAll();
  }

  /** A connected server (connecting it if needed); throws its error if it cannot be reached. */
  async connection(name: string): Promise<ServerConnection> {
    const connection = this.manager.connection(name);
    await this.loginPathReady;
    await connection.whenReady();
    return connection;
  }

  async restartServer(name: string): Promise<ServerSummary> {
    await this.loginPathReady;
    await this.manager.connection(name).restart();
    return this.manager.summary(name);
  }

  async stopServer(name: string): Promise<ServerSummary> {
    await this.manager.connection(name).stop();
    return this.manager.summary(name);
  }

  async catalog(name: string): Promise<Catalog> {
    return (await this.connection(name)).catalog;
  }

  async instructions(name: string): Promise<string | undefined> {
    return (await this.connection(name)).info.instructions;
  }

  // ------------------------------------------------------------------------------------------
  // Calls (the consent gate wraps callTool in the consent issue)

  async callTool(server: string, tool: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult> {
    const connection = await this.connection(server);
    if (!connection.catalog.tools.some((t) => t.name === tool)) {
      const known = connection.catalog.tools.map((t) => t.name);
      throw new HarborError('TOOL_NOT_FOUND', `"${server}" has no tool named "${tool}". Its tools: ${known.join(', ') || '(none)'}.`);
    }
    return connection.callTool(tool, args, { timeoutMs: this.timeoutFor(server), ...options });
  }

  async readResource(server: string, uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return (await this.connection(server)).readResource(uri, { timeoutMs: this.timeoutFor(server), ...options });
  }

  async getPrompt(server: string, name: string, args: Record<string, string> | undefined, options: CallOptions = {}): Promise<GetPromptResult> {
    return (await this.connection(server)).getPrompt(name, args, { timeoutMs: this.timeoutFor(server), ...options });
  }

  private timeoutFor(server: string): number | undefined {
    return this.registry?.servers.get(server)?.timeoutMs;
  }

  get isDisposed(): boolean {
    return this.owned.isDisposed;
  }

  /** Stops every server (in parallel, through the stop ladder) and releases everything. */
  async dispose(): Promise<void> {
    await this.owned.dispose();
  }
}
