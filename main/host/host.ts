import type { AppInfo, ServerSummary } from '../../preload/contract';
import { HarborError } from './errors';
import { HostEvents } from './events';
import { DisposableStore, type Disposable } from './lifecycle';
import { RegistryStore, type LoadedRegistry } from './registry/store';
import { isStdio, type RegistryFile, type ServerConfig } from './registry/schema';

export interface HostOptions {
  readonly configPath: string;
  readonly dataDir: string;
  readonly appName: string;
  readonly appVersion: string;
  readonly mode: AppInfo['mode'];
  readonly electronVersion?: string;
  /** What a fresh install's registry holds (the bundled example server). */
  readonly defaultRegistry?: () => RegistryFile;
}

/**
 * THE MCP host: the façade the three front doors (Electron IPC, CLI, browser mode) call.
 * It owns every long-lived thing through one DisposableStore; `dispose()` is the only teardown.
 */
export class Host implements Disposable {
  readonly events = new HostEvents();
  private readonly owned = new DisposableStore();
  private readonly registryStore: RegistryStore;
  private registry: LoadedRegistry | undefined;
  private configProblems: string[] = [];

  private constructor(private readonly options: HostOptions) {
    this.registryStore = new RegistryStore(options.configPath, options.defaultRegistry);
  }

  /** Builds a Host and loads the registry. A bad registry file is reported, not fatal. */
  static async create(options: HostOptions): Promise<Host> {
    const host = new Host(options);
    await host.reloadRegistry();
    return host;
  }

  async reloadRegistry(): Promise<void> {
    try {
      this.registry = await this.registryStore.load();
      this.configProblems = [];
    } catch (error) {
      if (!(error instanceof HarborError)) throw error;
      this.configProblems = (error.detail ?? error.message).split('\n');
      this.registry = undefined;
    }
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

  listServers(): ServerSummary[] {
    const servers = this.registry?.servers ?? new Map<string, ServerConfig>();
    return [...servers].map(([name, config]) => summarize(name, config));
  }

  getServer(name: string): ServerSummary {
    const config = this.registry?.servers.get(name);
    if (!config) throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}" in ${this.options.configPath}.`);
    return summarize(name, config);
  }

  get isDisposed(): boolean {
    return this.owned.isDisposed;
  }

  async dispose(): Promise<void> {
    await this.owned.dispose();
  }
}

function summarize(name: string, config: ServerConfig): ServerSummary {
  const stdio = isStdio(config);
  return {
    name,
    transport: stdio ? 'stdio' : 'http',
    enabled: config.enabled ?? true,
    trusted: config.trusted ?? false,
    target: stdio ? [config.command, ...(config.args ?? [])].join(' ') : config.url,
    state: { kind: 'stopped' },
    counts: { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 },
  };
}
