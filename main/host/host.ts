import { join } from 'node:path';
import type { AppInfo } from '../../preload/contract';
import { AuthService } from './auth/service';
import { BundleFolders } from './bundles/folders';
import { ConsentGate } from './consent/gate';
import type { ConsentStore } from './consent/store';
import { guardData, unlessDataUnusable } from './data-file-errors';
import { HostEvents, type HostEventStream } from './events';
import { loadEventSchemas, type EventSchemas } from './contract-checks';
import { lazyDataFile } from './lazy-data-file';
import { RegistryClient } from './gallery/client';
import { findExecutable } from './installs/find-executable';
import { DisposableStore, toDisposable, type Disposable } from './lifecycle';
import { defaultAppDir } from './paths';
import { securePrivateFolder } from './private-files';
import { RegistryStore } from './registry/store';
import { RefusalBook } from './sandbox/refusal-book';
import { SandboxRuntime } from './sandbox/runtime';
import { KeychainSecretStore } from './secrets/keychain-store';
import { HarborLog } from './log/harbor-log';
import { logFailures } from './services/failure-log';
import { Redactor } from './secrets/redactor';
import { JsonSchemaValidator } from './json-schema';
import { interpretedCheck } from './interpreted-schema';
import { ElicitationBroker } from './servers/elicitation';
import { hostInstanceId, sweepOrphans, type OrphanSweepReport } from './servers/stdio/orphans';
import { ProcessReaper } from './servers/stdio/reaper';
import { TrafficLog } from './servers/traffic';
import { AppService } from './services/app-service';
import { BundleService } from './services/bundle-service';
import { openChatAndCode } from './services/chat-wiring';
import { CallService } from './services/calls';
import { ConsentDecisions } from './services/consent-decisions';
import { ConnectionDoctor } from './services/doctor';
import { dataFiles } from './services/data-files';
import { EVENT_EXIT, openChatDoors, openDoors, type HostDoors } from './services/doors';
import { HarborLogReader } from './services/harbor-log-view';
import { ElicitationService } from './services/elicitation-service';
import { GalleryService } from './services/gallery-service';
import type { HostOptions } from './services/host-options';
import { ImportService } from './services/import-service';
import { InstalledServers } from './services/installed-servers';
import { RedactionExit } from './services/redaction-exit';
import { RegistryEditing } from './services/registry-editing';
import { RegistryState } from './services/registry-state';
import { RegistryWatch } from './services/registry-watch';
import { LogBook } from './services/log-book';
import { SamplingService } from './services/sampling-service';
import { sandboxOwnership } from './services/sandbox-ownership';
import { SandboxService } from './services/sandbox-service';
import { SecretService } from './services/secret-service';
import { samplingSettings, serverFeatures } from './services/server-features';
import { ServerLogService } from './services/server-logs';
import { SubscriptionService } from './services/subscription-service';
import { Sampler } from './sampling/sampler';
import { adoptRegistryOnFirstRun, openConsentStore } from './services/first-run';
import { ServerControl } from './services/server-control';
import { ServerIdentities } from './services/server-identities';
import { createServerManager } from './services/server-launch';
import { hostLoginPath, type LoginPathCache } from './services/login-path';
import { ServerSignIn } from './services/server-sign-in';
import { openSkills } from './services/skill-wiring';
import { ServerEventLog } from './services/server-event-log';
import { ShellDoor } from './services/shell-door';
import { SettingsService } from './services/settings-service';
import { ToolSearch } from './services/tool-search';
import { TrafficFeed } from './services/traffic-feed';
import { TaskDelivery } from './services/task-delivery';
import { TaskService } from './tasks/service';
import { TaskStore } from './tasks/store';

export { defaultRegistry, type HostOptions } from './services/host-options';

/** The stop ladder after Ctrl-C: the whole stop stays well under a second. */
const INTERRUPTED_STOP_GRACES = { stdinGraceMs: 100, termGraceMs: 400 };
export type { ToolCallOptions } from './services/calls';

/**
 * THE MCP host, and the only door to it: the Electron IPC, browser mode and the CLI call the
 * doors below (services/doors.ts lists every method and how its result is cleaned) and listen to
 * `events`. Everything leaving — results, errors, events — passes one RedactionExit, so no front
 * door can show a secret a server echoed. The Host composes small services (services/) and owns
 * every long-lived thing through one DisposableStore; `dispose()` is the only teardown.
 */
export class Host implements Disposable {
  /** Where the exit sends events out; front doors hold only `events`, which cannot emit. */
  private readonly outer: HostEvents;
  /** What the front doors hear: the inner bus's events, cleaned at the exit. */
  readonly events: HostEventStream;
  // The doors (services/doors.ts), set from openDoors/openChatDoors in the constructor.
  declare readonly servers: HostDoors['servers'];
  declare readonly auth: HostDoors['auth'];
  declare readonly registry: HostDoors['registry'];
  declare readonly imports: HostDoors['imports'];
  declare readonly calls: HostDoors['calls'];
  declare readonly consent: HostDoors['consent'];
  declare readonly secrets: HostDoors['secrets'];
  declare readonly settings: HostDoors['settings'];
  declare readonly chat: HostDoors['chat'];
  declare readonly elicitation: HostDoors['elicitation'];
  declare readonly traffic: HostDoors['traffic'];
  declare readonly serverEvents: HostDoors['serverEvents'];
  declare readonly sampling: HostDoors['sampling'];
  declare readonly logs: HostDoors['logs'];
  declare readonly subscriptions: HostDoors['subscriptions'];
  declare readonly apps: HostDoors['apps'];
  declare readonly tools: HostDoors['tools'];
  declare readonly bundles: HostDoors['bundles'];
  declare readonly gallery: HostDoors['gallery'];
  declare readonly sandbox: HostDoors['sandbox'];
  declare readonly tasks: HostDoors['tasks'];
  declare readonly code: HostDoors['code'];
  declare readonly shell: HostDoors['shell'];
  declare readonly skills: HostDoors['skills'];
  declare readonly doctor: HostDoors['doctor'];
  declare readonly harborLog: HostDoors['harborLog'];

  /**
   * Disposed in reverse order of registration: a running orphan sweep is waited for; the events
   * stop leaving; pending questions are cancelled; running chat turns stop (cancelling their tool
   * calls and finishing their writes while the servers are still up) and the conversations
   * database closes; the traffic feed stops; the servers stop (through their stop ladder); then
   * sign-ins (none outlives its connection), the consent gate and its database, and the secret
   * store last.
   */
  private readonly owned = new DisposableStore();
  private readonly state: RegistryState;
  private readonly loginPath: LoginPathCache;
  private readonly taskService: TaskService;
  private orphanSweep: Promise<OrphanSweepReport> | undefined;
  /** This version's first run adopts the registry it finds (services/first-run.ts). */
  private readonly adoptRegistry: () => boolean;
  private orphansStopped: number | undefined;
  private interrupted = false;
  private readonly warn: (message: string) => void;
  /** Removes bundle folders no installed server refers to. */
  private readonly collectBundles: () => Promise<void>;

  private constructor(
    private readonly options: HostOptions,
    eventSchemas: EventSchemas | undefined,
  ) {
    this.outer = new HostEvents({ schemas: eventSchemas });
    this.events = this.outer.readOnly();
    // Owned: a login shell still being asked when Harbor stops is killed, not left to its timeout.
    this.loginPath = this.owned.add(hostLoginPath(options));
    // Services talk on the inner bus; front doors hear `events`, after the exit.
    const inner = new HostEvents({ schemas: eventSchemas });
    const redactor = options.redactor ?? new Redactor();
    // Harbor's own log: one for the app, browser mode and the CLI; lines masked by the same redactor.
    const log = this.owned.add(new HarborLog({ dir: join(options.dataDir, 'logs'), redact: (text) => redactor.redact(text) }));
    this.owned.add(logFailures(inner, log));
    for (const bus of [inner, this.outer]) bus.reportListenerFailures((event, error) => log.write('error', { area: 'events', message: `a listener of ${event} failed`, error }));
    const exit = new RedactionExit(redactor);
    this.state = new RegistryState(new RegistryStore(options.configPath, options.defaultRegistry), options.configPath, options.defaultRegistry !== undefined);
    const store = this.owned.add(options.secrets ?? new KeychainSecretStore());
    const identities = new ServerIdentities(this.state);
    const traffic = new TrafficLog((text) => redactor.redact(text));
    const broker = new ElicitationBroker();
    const files = dataFiles(options.dataDir);
    this.warn = options.warn ?? ((message) => void process.stderr.write(`${message}\n`));
    // Each database opens on first use (lazy-data-file.ts): a damaged one stops only what needs it.
    const access = options.dataAccess ?? 'read-write';
    // A reader adopts the registry (a no-op once done) when it first needs consent, not at start.
    const adopt = (store: ConsentStore) => adoptRegistryOnFirstRun(store, this.state, { ...options.launchVariables, data: options.dataDir });
    const decisions = this.owned.add(lazyDataFile(files.consent, () => openConsentStore(files.consent.path, access, access === 'read-only' ? adopt : undefined)));
    const gate = this.owned.add(
      new ConsentGate(decisions, inner, {
        interactive: options.interactiveConsent ?? options.mode !== 'cli',
        ...(options.consentTimeoutMs !== undefined ? { timeoutMs: options.consentTimeoutMs } : {}),
      }),
    );
    if (options.approveLaunches) gate.approveLaunchForSession('*');
    this.adoptRegistry = () => adopt(decisions);
    const secrets = new SecretService(store, redactor, gate, this.state, identities);
    const auth = this.owned.add(
      new AuthService({
        secrets: store,
        redactor,
        clientName: options.appName,
        clientVersion: options.appVersion,
        opener: options.openBrowser ?? (async () => undefined),
        ...(options.oauth?.clientMetadataUrl ? { clientMetadataUrl: options.oauth.clientMetadataUrl } : {}),
        ...(options.oauth?.signIn ? { signIn: options.oauth.signIn } : {}),
        ...(options.oauth?.callbackTimeoutMs !== undefined ? { callbackTimeoutMs: options.oauth.callbackTimeoutMs } : {}),
        ...(options.oauth?.now ? { now: options.oauth.now } : {}),
        serverConfig: (server) => (this.state.server(server) as { oauth?: unknown } | undefined)?.oauth,
        onOpen: (server, url) => inner.emit('auth.open', { server, url: url.href }),
      }),
    );
    // What servers may ask of Harbor beyond tools: the model (reviewed by the person), their roots, their log.
    const logs = new LogBook(inner);
    const sampler = this.owned.add(
      new Sampler({
        settings: (server) => samplingSettings(this.state, server),
        events: inner,
        resolveSecret: (name) => secrets.resolve(name),
        interactive: options.mode !== 'cli',
      }),
    );
    const features = (server: string) => serverFeatures(server, { registry: this.state, sampler, logs });
    // Disposed after the servers (reverse order): their sandboxed launches are released first.
    const sandboxRuntime = this.owned.add(
      new SandboxRuntime({
        dataDir: options.dataDir,
        configPath: options.configPath,
        appDir: defaultAppDir(),
        ...(process.env.XDG_DATA_HOME ? { xdgDataHome: process.env.XDG_DATA_HOME } : {}),
        ...(options.sandbox?.checkAvailability ? { checkAvailability: options.sandbox.checkAvailability } : {}),
        ownership: sandboxOwnership((server) => this.state.server(server)),
      }),
    );
    const refusals = new RefusalBook((entry) => inner.emit('sandbox.refused', entry));
    // Disposed after the servers (reverse order): by then it records no group, and simply exits.
    const reaper = options.reaper === false ? undefined : this.owned.add(new ProcessReaper());
    // One validator for every schema a server sends: tool arguments, results and elicitation answers.
    const schemas = new JsonSchemaValidator(options.schemaChecks === 'interpreted' ? { interpreter: interpretedCheck } : {});
    const servers = this.owned.add(
      new ServerControl({
        registry: this.state,
        identities,
        events: inner,
        consent: gate,
        createManager: (onChange) =>
          createServerManager(
            options,
            {
              traffic,
              elicitation: broker,
              auth,
              consent: gate,
              secrets: store,
              redactor,
              loginPath: this.loginPath,
              sandbox: sandboxRuntime,
              onSandboxRefusal: (server, refusal) => refusals.record(server, refusal),
              reaper,
              // Ctrl-C: the person is waiting for the prompt, not for servers to finish by themselves.
              stopGraces: () => (this.interrupted ? INTERRUPTED_STOP_GRACES : options.stopGraces),
              features,
              outputValidator: schemas.forSdk(),
              log,
            },
            onChange,
          ),
      }),
    );
    const registry = new RegistryEditing(this.state, servers, secrets, gate, options.configPath);
    if (options.mode !== 'cli') this.owned.add(new RegistryWatch({ path: options.configPath, follow: () => registry.followFile(), events: inner, log })).start();
    const sandbox = new SandboxService(sandboxRuntime, refusals, this.state, registry);
    const installed = new InstalledServers(this.state, registry, secrets, servers, { ...options.launchVariables, data: options.dataDir });
    const bundles = this.owned.add(
      new BundleService(this.state, installed, new BundleFolders(options.dataDir), inner, sandbox, async () => {
        await this.loginPath.whenReady();
        return findExecutable('uv', [process.env.PATH, this.loginPath.current]);
      }),
    );
    // A removed server takes its bundle's files along; an updated one, its old version's.
    this.owned.add(inner.onEvent('servers.changed', ({ reason }) => reason === 'removed' || reason === 'config' ? void bundles.collectGarbage().catch(() => undefined) : undefined));
    this.collectBundles = () => bundles.collectGarbage();
    // After the servers, so it stops following tasks before they stop.
    const tasks = (this.taskService = this.owned.add(
      new TaskService({
        connect: (server) => servers.ready(server),
        store: lazyDataFile(files.tasks, () => new TaskStore(files.tasks.path, this.warn, options.mode === 'cli' ? 'cli' : 'app', access)),
        events: inner,
        timeoutFor: (server) => this.state.server(server)?.timeoutMs,
      }),
    ));
    const calls = new CallService(servers, gate, this.state, identities, schemas, tasks);
    // MCP Apps: their calls go through the same call service (consent gate included).
    const apps = this.owned.add(new AppService({ servers, calls, events: inner }));
    // One sign-in service: the door and the connection doctor read the same one.
    const signIn = new ServerSignIn(servers, auth, this.state);
    const doors = openDoors(exit, {
      servers,
      signIn,
      registry,
      imports: new ImportService(this.state, registry, store, gate, options.configPath),
      calls,
      consent: new ConsentDecisions(gate, servers, identities),
      secrets,
      settings: new SettingsService(this.state, registry, secrets),
      traffic: this.owned.add(new TrafficFeed(traffic, inner, () => this.outer.listens('traffic.message'))),
      serverEvents: this.owned.add(new ServerEventLog(inner)),
      sampling: new SamplingService(sampler),
      logs: new ServerLogService(logs, servers, this.state, registry),
      subscriptions: new SubscriptionService(servers),
      tools: this.owned.add(new ToolSearch(servers, inner)),
      bundles,
      gallery: new GalleryService(this.state, registry, installed, bundles, new RegistryClient(), sandbox),
      sandbox,
      tasks,
      apps,
      skills: openSkills(this.owned, { dataDir: options.dataDir, access, servers, identities, log, ...(gate.interactive ? { questions: gate.questions } : {}) }),
      doctor: new ConnectionDoctor({ registry: this.state, servers, consent: gate, secrets: store, signIn, sandbox, variables: { ...options.launchVariables, data: options.dataDir }, serverPath: async () => (await this.loginPath.whenReady(), this.loginPath.current) }),
      shell: new ShellDoor(inner),
      harborLog: new HarborLogReader(join(options.dataDir, 'logs')),
    });
    const { chat, code, conversations } = openChatAndCode({ owned: this.owned, options, files, doors, inner, servers, gate, identities, log, appContext: (id) => apps.modelContext(id), resolveSecret: (name) => secrets.resolve(name), clean: (value) => exit.clean('mask', value) });
    // A task that ends after the turn that started it brings its result into that conversation.
    this.owned.add(new TaskDelivery(tasks, conversations));
    const elicitation = this.owned.add(new ElicitationService(broker, inner, schemas, options.mode !== 'cli'));
    const chatDoors = openChatDoors(exit, chat, elicitation, code);
    this.owned.add(exit.forwardEvents(inner, this.outer, EVENT_EXIT));

    Object.assign(this, doors, chatDoors);
  }

  /** Builds a Host and loads the registry. A bad registry file is reported (appInfo), not fatal. */
  static async create(options: HostOptions): Promise<Host> {
    // Owner-only before anything is written into it.
    guardData(dataFiles(options.dataDir).folder, () => securePrivateFolder(options.dataDir));
    // The events' schemas only with contract checks on (tests, HARBOR_CONTRACT_CHECKS=1).
    const host = new Host(options, await loadEventSchemas());
    // Servers a Harbor left running when it died with its reaper (both killed at once): stopped
    // in the background at every start, a one-shot command's included; dispose waits for it.
    void host.sweepOrphans();
    await host.registry.reload();
    // Before anything starts: what was configured before this version keeps working. A consent.db
    // Harbor cannot use stops only what needs consent, which reports it; adoption waits for a run that can.
    if (options.dataAccess !== 'read-only') host.unlessDataUnusable(() => host.adoptRegistry(), false);
    // Files of bundles whose servers were removed while no Harbor ran (the file edited by hand).
    await host.collectBundles().catch(() => undefined);
    // The app and browser mode live long: the login shell answers while they start. A CLI command
    // starts it only when it launches a stdio server.
    if (options.mode !== 'cli') host.loginPath.warmUp();
    // The app and browser mode follow again the tasks that had not ended when Harbor last stopped
    // (a CLI command follows only the tasks it starts).
    if (options.mode !== 'cli') host.unlessDataUnusable(() => host.taskService.resume(), true);
    return host;
  }

  /** Runs `work`; a data file Harbor cannot use (its error names it) is told with `warn` when `tell`, else left to what needs it. */
  private unlessDataUnusable(work: () => unknown, tell: boolean): void {
    unlessDataUnusable(work, tell ? this.warn : undefined);
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
      configProblems: [...this.state.problems],
      ...(this.orphansStopped !== undefined ? { orphansStopped: this.orphansStopped } : {}),
    };
  }

  /**
   * Stops server processes left running by a Harbor that died without stopping them (a crash, a
   * SIGKILL, its reaper killed too): `create` starts it. Runs once; dispose waits for it.
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

  get isDisposed(): boolean {
    return this.owned.isDisposed;
  }

  /** The person interrupted (Ctrl-C): servers stopped from now on get 0.1 s after stdin ends and 0.4 s after SIGTERM. */
  interrupt(): void {
    this.interrupted = true;
  }

  /** Stops every server (in parallel, through the stop ladder) and releases everything. */
  async dispose(): Promise<void> {
    // Chat turns ending with Harbor leave their tasks running, to be followed again at the next start.
    this.taskService.beginShutdown();
    await this.owned.dispose();
  }
}
