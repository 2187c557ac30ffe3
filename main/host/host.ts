import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { AppInfo, ServerSummary } from '../../preload/contract';
import { ChatService } from './chat/service';
import { resolveChatSettings, type ChatSettings } from './chat/settings';
import { ConsentGate } from './consent/gate';
import { ConsentStore } from './consent/store';
import { HarborError } from './errors';
import { HostEvents } from './events';
import { DisposableStore, toDisposable, type Disposable } from './lifecycle';
import { RegistryStore, type LoadedRegistry } from './registry/store';
import type { RegistryFile, ServerConfig } from './registry/schema';
import type { RestartPolicyOptions } from './servers/backoff';
import type { Catalog } from './servers/catalog';
import type { CallOptions, ServerConnection, TransportFactory } from './servers/connection';
import { ElicitationBroker } from './servers/elicitation';
import { InteractiveElicitation } from './servers/app-elicitation';
import { checkRegistryText, withServerAdded, withServerRemoved, withServerUpdated } from './registry/editor';
import { importPreview, importSources, runImport, type ImportDeps } from './registry/import-service';
import { modelKeySecretName, settingsView, withChat, withModel, withToolEnabled, type ChatInput, type ModelInput, type SettingsView } from './registry/app-edits';
import { EraCache } from './servers/era-cache';
import type { LaunchVariables } from './servers/launch';
import { ServerManager } from './servers/manager';
import { LoginShellPath } from './servers/stdio/environment';
import { TrafficLog, plainTrafficEntry } from './servers/traffic';
import { hostInstanceId, sweepOrphans, type OrphanSweepReport } from './servers/stdio/orphans';
import { KeychainSecretStore } from './secrets/keychain-store';
import { Redactor } from './secrets/redactor';
import { resolveLaunchSecrets } from './secrets/references';
import type { SecretStore } from './secrets/store';
import { createTransportFactory } from './servers/transports';
import { AuthService } from './auth/service';
import type { BrowserOpener } from './auth/opener';

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
  /**
   * Whether a person can answer consent requests (the app). Default: true except in the CLI,
   * where a call that needs consent fails with CONSENT_REQUIRED (exit 4) instead of waiting.
   */
  readonly interactiveConsent?: boolean;
  /** How long a consent request waits before it counts as denied (default 5 min). */
  readonly consentTimeoutMs?: number;
  /** Approve launching every configured stdio server for this run (like --yes); tests and scripts. */
  readonly approveLaunches?: boolean;
  /** Where `${secret:NAME}` values come from; the Host owns (disposes) it. Default: the OS keychain, service "Harbor". */
  readonly secrets?: SecretStore;
  /** The one redactor for everything Harbor writes or shows (the CLI shares it to mask its output). */
  readonly redactor?: Redactor;
  /** Where the chat looks for a local Ollama when no model is configured (default http://127.0.0.1:11434). */
  readonly ollamaUrl?: string;
  /**
   * Shows OAuth sign-in pages: Electron passes `shell.openExternal`; `login` may pass its own
   * (the CLI prints the URL). Without one, pages are only announced with the `auth.open` event.
   */
  readonly openBrowser?: BrowserOpener;
  /** OAuth for remote servers (main/host/auth). */
  readonly oauth?: {
    /** CIMD: an https URL where Harbor's client metadata document is hosted. Default: none (dynamic registration). */
    readonly clientMetadataUrl?: string;
    /** "explicit" (default): only `login` opens a browser; "automatic": any connect or call may (tests). */
    readonly signIn?: 'explicit' | 'automatic';
    /** How long a sign-in waits for the browser to come back (default 5 minutes). */
    readonly callbackTimeoutMs?: number;
  };
}

/** Options of one tool call beyond timeouts: who asks, and whether the person approved up front. */
export interface ToolCallOptions extends CallOptions {
  readonly consent?: {
    /** "Allow for this conversation" approvals are kept per conversation. */
    readonly conversationId?: string;
    /** `--yes`: the person approved this one call (and the launch it needs). */
    readonly approveOnce?: boolean;
  };
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
  readonly consent: ConsentGate;
  /** Secrets by name; values never leave main (the renderer learns only names). */
  readonly secrets: SecretStore;
  /** Knows every secret value resolved in this process and masks it wherever text goes out. */
  readonly redactor: Redactor;
  /** The chat: agent loop, model providers, conversations (SQLite in the data dir). */
  readonly chat: ChatService;
  /** OAuth sign-in for remote servers: tokens in the keychain, loopback callback listener. */
  readonly auth: AuthService;
  /** The app's general elicitation dialog (undefined in the CLI, which answers from --answer). */
  appElicitation: InteractiveElicitation | undefined;
  private orphanSweep: Promise<OrphanSweepReport> | undefined;
  private orphansStopped: number | undefined;

  private constructor(private readonly options: HostOptions) {
    this.registryStore = new RegistryStore(options.configPath, options.defaultRegistry);
    this.eraCache = new EraCache(join(options.dataDir, 'era-cache.json'));
    this.redactor = options.redactor ?? new Redactor();
    this.secrets = this.owned.add(options.secrets ?? new KeychainSecretStore());
    this.traffic = new TrafficLog((text) => this.redactor.redact(text));
    const consentStore = this.owned.add(new ConsentStore(join(options.dataDir, 'consent.db')));
    this.consent = this.owned.add(
      new ConsentGate(consentStore, this.events, {
        interactive: options.interactiveConsent ?? options.mode !== 'cli',
        ...(options.consentTimeoutMs !== undefined ? { timeoutMs: options.consentTimeoutMs } : {}),
      }),
    );
    if (options.approveLaunches) this.consent.approveLaunchesForSession('*');
    // Registered before the servers, so disposed after them: no sign-in outlives its connection.
    this.auth = this.owned.add(
      new AuthService({
        secrets: this.secrets,
        redactor: this.redactor,
        clientName: options.appName,
        clientVersion: options.appVersion,
        opener: options.openBrowser ?? (async () => undefined),
        ...(options.oauth?.clientMetadataUrl ? { clientMetadataUrl: options.oauth.clientMetadataUrl } : {}),
        ...(options.oauth?.signIn ? { signIn: options.oauth.signIn } : {}),
        ...(options.oauth?.callbackTimeoutMs !== undefined ? { callbackTimeoutMs: options.oauth.callbackTimeoutMs } : {}),
        serverConfig: (server) => (this.registry?.servers.get(server) as { oauth?: unknown } | undefined)?.oauth,
        onOpen: (server, url) => this.events.emit('auth.open', { server, url: url.href }),
      }),
    );
    this.manager = this.createManager(new Map());
    // Disposed first (stores dispose in reverse): servers stop before the consent store closes.
    this.owned.add(toDisposable(() => this.manager.dispose()));
    // Registered after the servers, so disposed before them: running turns cancel their tool
    // calls and finish writing while the servers are still up.
    this.chat = this.owned.add(
      new ChatService({
        host: this,
        storePath: join(options.dataDir, 'conversations.db'),
        configPath: options.configPath,
        settings: () => this.chatSettings(),
        resolveSecret: async (name) => {
          const value = await this.secrets.get(name);
          if (value !== undefined) this.redactor.add(value);
          return value;
        },
        ...(options.ollamaUrl ? { ollamaUrl: options.ollamaUrl } : {}),
      }),
    );
    // In the app a server's question during a chat tool call is shown with that call; any other
    // (a tool run by hand, a resource read) gets the general elicitation dialog.
    if (options.mode !== 'cli') {
      const general = this.owned.add(new InteractiveElicitation(this.events));
      this.appElicitation = general;
      this.owned.add(this.elicitation.respondWith(this.chat.elicitationResponder(general.respond)));
    }
    // The Activity view follows the traffic live (already redacted).
    const stopTraffic = this.traffic.onEntry((entry) => {
      if (this.events.listenerCount > 0) this.events.emit('traffic.message', plainTrafficEntry(entry));
    });
    this.owned.add(toDisposable(stopTraffic));
  }

  /** The chat's settings from the registry's "model" and "chat" entries (throws when the file is invalid). */
  chatSettings(): ChatSettings {
    const registry = this.requireValidRegistry();
    return resolveChatSettings(registry.file, registry.servers);
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
          auth: (server, url, headers) => this.auth.forTransport(server, url, headers),
          loginPathValue: () => this.loginPathValue,
          redact: (text) => this.redactor.redact(text),
          ...(o.stopGraces ? { stopGraces: o.stopGraces } : {}),
        }),
      elicitation: this.elicitation,
      variables: { ...o.launchVariables, data: o.dataDir },
      probeTimeoutMs: o.probeTimeoutMs ?? 4_000,
      connectTimeoutMs: o.connectTimeoutMs ?? 30_000,
      ...(o.restart ? { restart: o.restart } : {}),
      authorizeLaunch: (name, trusted, spec) => this.consent.authorizeLaunch(name, trusted, spec),
      // Every launch, automatic restarts included: a stdio server waits for the login-shell PATH
      // (resolved once, in the background); `${secret:…}` values are read from the store, in main,
      // and join the redactor.
      prepareLaunch: async (name, spec) => {
        if (spec.transport === 'stdio') await this.loginPathReady;
        return resolveLaunchSecrets(name, spec, { store: this.secrets, redactor: this.redactor });
      },
      onChange: (name, change) => {
        if (change.kind === 'catalog' && change.changed.includes('tools')) this.reviewTools(name);
        if (change.kind === 'state' && change.state.kind === 'ready') this.reviewTools(name);
        const summary = this.manager.has(name) ? this.redactor.redactDeep(this.manager.summary(name)) : undefined;
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
    await this.applyServers();
  }

  /** Brings the running connections in line with the registry: only what changed restarts. */
  private async applyServers(): Promise<void> {
    const changed = await this.manager.apply(this.registry?.servers ?? new Map());
    for (const name of changed) {
      if (this.manager.has(name)) this.events.emit('servers.changed', { name, reason: 'config', summary: this.manager.summary(name) });
      else this.events.emit('servers.changed', { name, reason: 'removed' });
    }
  }

  /** Saves a new registry file (atomically, keeping .bak) and applies it. */
  private async saveRegistry(file: RegistryFile): Promise<void> {
    await this.registryStore.save(file);
    await this.reloadRegistry();
  }

  // ------------------------------------------------------------------------------------------
  // Registry editing (the app's server editor)

  /**
   * The registry for the app's editor: the file's own text (as the person wrote it) and, when it
   * is broken, each problem with the line it is on.
   */
  async registryView(): Promise<{ path: string; text: string; servers: Array<{ name: string; config: Record<string, unknown> }>; problems: Array<{ path: string; message: string; line?: number }> }> {
    const file = this.registry?.file;
    const raw = await readFile(this.options.configPath, 'utf8').catch(() => undefined);
    const checked = !file && raw !== undefined ? checkRegistryText(raw) : undefined;
    return {
      path: this.options.configPath,
      text: raw ?? (file ? `${JSON.stringify(file, null, 2)}\n` : ''),
      servers: Object.entries(file?.mcpServers ?? {}).map(([name, config]) => ({ name, config: { ...config } })),
      problems:
        checked && checked.problems.length > 0
          ? checked.problems
          : this.configProblems.map((line) => {
              const sep = line.indexOf(': ');
              return sep > 0 ? { path: line.slice(0, sep), message: line.slice(sep + 2) } : { path: '(file)', message: line };
            }),
    };
  }

  async addServer(name: string, config: Record<string, unknown>): Promise<ServerSummary> {
    await this.saveRegistry(withServerAdded(this.requireValidRegistry().file, name, config));
    return this.manager.summary(name);
  }

  async updateServer(name: string, config: Record<string, unknown>, newName?: string): Promise<ServerSummary> {
    await this.saveRegistry(withServerUpdated(this.requireValidRegistry().file, name, config, newName));
    return this.manager.summary(newName ?? name);
  }

  async removeServer(name: string): Promise<boolean> {
    await this.saveRegistry(withServerRemoved(this.requireValidRegistry().file, name));
    return true;
  }

  /** Raw JSON editing: nothing is written unless the whole text is valid. */
  async saveRegistryText(text: string): Promise<{ saved: boolean; problems: Array<{ path: string; message: string; line?: number }> }> {
    const checked = checkRegistryText(text);
    if (!checked.file) return { saved: false, problems: checked.problems };
    await this.saveRegistry(checked.file);
    return { saved: true, problems: [] };
  }

  /** Turns one tool of a server on or off; a disabled tool is never offered to the model. The server keeps running. */
  async setToolEnabled(server: string, tool: string, enabled: boolean): Promise<{ disabledTools: string[] }> {
    const config = this.requireValidRegistry().servers.get(server);
    if (!config) throw new HarborError('SERVER_NOT_FOUND', `No server named "${server}".`);
    const next = withToolEnabled(config, tool, enabled);
    await this.updateServer(server, next as Record<string, unknown>);
    return { disabledTools: [...(next.disabledTools ?? [])] };
  }

  // ------------------------------------------------------------------------------------------
  // Import from Claude Desktop / VS Code / Cursor (the same module as `harbor import`)

  /** The usual config files of the apps Harbor imports from, and which of them exist here. */
  importSources(): ReturnType<typeof importSources> {
    return importSources();
  }

  /** What importing `path` would add, rename, skip, and which secrets would move to the keychain. Writes nothing. */
  async importPreview(path: string, rename: boolean): Promise<ReturnType<typeof importPreview>> {
    const outcome = await runImport(this.importDeps(), importPath(path), { rename, dryRun: true });
    return importPreview(outcome, this.options.configPath, true);
  }

  /** Imports `path`: secrets to the keychain first, then the registry; nothing is written on a clash without `rename`. */
  async importApply(path: string, rename: boolean): Promise<ReturnType<typeof importPreview>> {
    const outcome = await runImport(this.importDeps(), importPath(path), { rename });
    return importPreview(outcome, this.options.configPath, false);
  }

  private importDeps(): ImportDeps {
    return { load: () => this.registryStore.load(), save: (file) => this.saveRegistry(file), secrets: this.secrets };
  }

  // ------------------------------------------------------------------------------------------
  // Settings: the registry's "model" and "chat" entries

  async settings(): Promise<SettingsView> {
    const names = await this.secrets.list().then(
      (list) => new Set(list),
      () => undefined, // keychain unavailable: the page shows the key as "not checked"
    );
    return settingsView(this.registry?.file, names);
  }

  /**
   * Sets (or, with null, removes) the chat model. A new API key goes to the keychain first and the
   * registry gets only its `${secret:…}` reference.
   */
  async setModel(
    input: (Omit<ModelInput, 'apiKey'> & { apiKeyMode: 'keep' | 'env' | 'set'; apiKey?: string }) | null,
  ): Promise<SettingsView> {
    const file = this.requireValidRegistry().file;
    if (input === null) {
      await this.saveRegistry(withModel(file, null));
      return this.settings();
    }
    const { apiKeyMode, apiKey, ...model } = input;
    let key: ModelInput['apiKey'] = { kind: apiKeyMode === 'env' ? 'env' : 'keep' };
    if (apiKeyMode === 'set') {
      const value = apiKey?.trim() ?? '';
      if (!value) throw new HarborError('BAD_REQUEST', 'The API key is empty: paste the key, or choose to use the environment variable.');
      const secret = modelKeySecretName(model.provider);
      // Checked before the keychain write: a bad model entry must not leave a stray secret.
      withModel(file, { ...model, apiKey: { kind: 'secret', secret } });
      await this.secrets.set(secret, value);
      this.redactor.add(value);
      key = { kind: 'secret', secret };
    }
    await this.saveRegistry(withModel(file, { ...model, apiKey: key }));
    return this.settings();
  }

  async setChatSettings(input: ChatInput): Promise<SettingsView> {
    await this.saveRegistry(withChat(this.requireValidRegistry().file, input));
    return this.settings();
  }

  async startServer(name: string): Promise<ServerSummary> {
    await this.manager.connection(name).start();
    return this.manager.summary(name);
  }

  /** Argument suggestions for a prompt or resource template, when the server offers completions. */
  async complete(server: string, ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, argument: { name: string; value: string }, context?: Record<string, string>): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
    return (await this.connection(server)).complete(ref, argument, context);
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

  /**
   * Stops server processes left running by a Harbor that died without stopping them (a crash, a
   * SIGKILL): the app and browser mode call it once at startup. Runs once; dispose waits for it.
   */
  sweepOrphans(): Promise<OrphanSweepReport> {
    if (!this.orphanSweep) {
      this.orphanSweep = sweepOrphans({ self: hostInstanceId() }).then((report) => {
        this.orphansStopped = report.stopped.length;
        return report;
      });
      const sweep = this.orphanSweep;
      this.owned.add(toDisposable(async () => void (await sweep)));
    }
    return this.orphanSweep;
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
      ...(this.orphansStopped !== undefined ? { orphansStopped: this.orphansStopped } : {}),
    };
  }

  // ------------------------------------------------------------------------------------------
  // Servers

  listServers(): ServerSummary[] {
    return this.redactor.redactDeep(this.manager.summaries());
  }

  getServer(name: string): ServerSummary {
    return this.redactor.redactDeep(this.manager.summary(name));
  }

  serverNames(): string[] {
    return this.manager.names();
  }

  /** Connects every enabled server in parallel; resolves when each is ready or in error. */
  async startAll(): Promise<void> {
    await this.manager.startAll();
  }

  /** A connected server (connecting it if needed); throws its error if it cannot be reached. */
  async connection(name: string): Promise<ServerConnection> {
    const connection = this.manager.connection(name);
    if (connection.state.kind === 'ready') return connection;
    // A state's message can quote the server (and its stderr): masked like everything shown.
    await connection.whenReady().catch((error: unknown) => {
      throw this.redactor.redactError(error);
    });
    return connection;
  }

  async restartServer(name: string): Promise<ServerSummary> {
    await this.manager.connection(name).restart();
    return this.getServer(name);
  }

  /**
   * Signs in to a remote server (OAuth): reconnects it with a sign-in allowed, the page shown with
   * `opener` (else the Host's), and resolves once it is ready; throws AUTH_REQUIRED / AUTH_FAILED
   * (or the server's other error) otherwise. A server that needs no sign-in just connects.
   */
  async login(name: string, options: { opener?: BrowserOpener } = {}): Promise<ServerSummary> {
    const connection = this.manager.connection(name);
    const spec = connection.spec;
    if (spec.transport !== 'http') {
      throw new HarborError('BAD_REQUEST', `"${name}" is a local (stdio) server: only remote servers sign in. Its secrets go in the keychain with "harbor secret set".`);
    }
    try {
      await this.auth.signIn(
        name,
        spec.url,
        async () => {
          // One connect, one sign-in budget: whenReady() would connect (and ask) again after a failure.
          await connection.restart();
          const state = connection.state;
          if (state.kind === 'error') throw new HarborError(state.code, state.message, state.stderrTail || undefined);
          if (state.kind !== 'ready') throw new HarborError('CONNECTION_CLOSED', `"${name}" is ${state.kind}.`);
        },
        options.opener,
      );
    } catch (error) {
      throw this.redactor.redactError(error);
    }
    return this.getServer(name);
  }

  /** Forgets a remote server's tokens and client registration (revoked at the authorization server when possible); a running connection stops. */
  async logout(name: string): Promise<{ removed: boolean; revoked: boolean }> {
    const config = this.requireValidRegistry().servers.get(name);
    if (!config) throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}". Known servers: ${this.serverNames().join(', ') || '(none)'}.`);
    if (!('url' in config) || typeof config.url !== 'string') {
      throw new HarborError('BAD_REQUEST', `"${name}" is a local (stdio) server: it has no sign-in to forget.`);
    }
    // A disabled server can still be signed out of; a running one stops using the forgotten tokens.
    const connection = config.enabled === false ? undefined : this.manager.connection(name);
    const url = connection?.spec.transport === 'http' ? connection.spec.url : config.url;
    const result = await this.auth.signOut(name, url);
    if (connection && connection.state.kind !== 'stopped') await connection.stop();
    return result;
  }

  async stopServer(name: string): Promise<ServerSummary> {
    await this.manager.connection(name).stop();
    return this.getServer(name);
  }

  async catalog(name: string): Promise<Catalog> {
    return this.redactor.maskDeep((await this.connection(name)).catalog);
  }

  async instructions(name: string): Promise<string | undefined> {
    const instructions = (await this.connection(name)).info.instructions;
    return instructions === undefined ? undefined : this.redactor.mask(instructions);
  }

  /** A rug pull shows up as a changed definition of an approved tool: let the gate record it. */
  private reviewTools(name: string): void {
    if (!this.manager.has(name)) return;
    try {
      this.consent.reviewCatalog(name, this.manager.connection(name).catalog.tools);
    } catch {
      // A disabled or misconfigured server has no catalog to review.
    }
  }

  private trusted(server: string): boolean {
    return this.registry?.servers.get(server)?.trusted === true;
  }

  // ------------------------------------------------------------------------------------------
  // Calls: every tool call, from any front door, goes through the consent gate here.

  async callTool(server: string, tool: string, args: Record<string, unknown> | undefined, options: ToolCallOptions = {}): Promise<CallToolResult> {
    const { consent, ...callOptions } = options;
    if (consent?.approveOnce) this.consent.approveLaunchesForSession(server);
    const connection = await this.connection(server);
    const definition = connection.catalog.tools.find((t) => t.name === tool);
    if (!definition) {
      const known = connection.catalog.tools.map((t) => t.name);
      throw new HarborError('TOOL_NOT_FOUND', `"${server}" has no tool named "${tool}". Its tools: ${known.join(', ') || '(none)'}.`);
    }
    await this.consent.authorizeTool({
      server,
      trusted: this.trusted(server),
      tool: definition,
      ...(args ? { arguments: args } : {}),
      ...(consent?.conversationId ? { conversationId: consent.conversationId } : {}),
      ...(consent?.approveOnce ? { approveOnce: true } : {}),
    });
    return this.shield(connection.callTool(tool, args, { timeoutMs: this.timeoutFor(server), ...callOptions }));
  }

  /** `harbor consent grant`: approves the tool as it is now (and launching its server as configured). */
  async grantTool(server: string, tool: string, always: boolean): Promise<void> {
    const connection = this.manager.connection(server);
    // The person named this server explicitly: that approves launching it as configured.
    this.consent.approveLaunch(server, connection.spec);
    await this.connection(server);
    const definition = connection.catalog.tools.find((t) => t.name === tool);
    if (!definition) throw new HarborError('TOOL_NOT_FOUND', `"${server}" has no tool named "${tool}".`);
    this.consent.grant(server, definition, always);
  }

  /** Approves launching a server exactly as configured now. */
  approveLaunch(server: string): void {
    this.consent.approveLaunch(server, this.manager.connection(server).spec);
  }

  /** The app's "Allow launch": the person approved this exact command line; start it now. */
  async approveLaunchAndStart(server: string): Promise<ServerSummary> {
    this.approveLaunch(server);
    return this.restartServer(server);
  }

  async readResource(server: string, uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.shield((await this.connection(server)).readResource(uri, { timeoutMs: this.timeoutFor(server), ...options }));
  }

  async getPrompt(server: string, name: string, args: Record<string, string> | undefined, options: CallOptions = {}): Promise<GetPromptResult> {
    return this.shield((await this.connection(server)).getPrompt(name, args, { timeoutMs: this.timeoutFor(server), ...options }));
  }

  /** What a server answers reaches no front door (nor a model) with a secret in it, even if it echoes one. */
  private async shield<T>(work: Promise<T>): Promise<T> {
    try {
      return this.redactor.maskDeep(await work);
    } catch (error) {
      throw this.redactor.redactError(error);
    }
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

/** An import path from the app: absolute, or starting with ~ for the home folder. */
function importPath(path: string): string {
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  if (!isAbsolute(expanded)) {
    throw new HarborError('BAD_REQUEST', `"${path}" is not a full path: give the whole path of the file, e.g. ~/.cursor/mcp.json.`);
  }
  return expanded;
}
