/**
 * Electron composition root: builds the log, the Host, the IPC binding, the window and the desktop
 * pieces (menu, deep links, updates, quit/shutdown), and wires the app's lifecycle to the Host's
 * dispose tree. Every decision lives in the modules it calls (main/shell/*, main/window.ts, …).
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, powerMonitor, protocol, screen, session, shell } from 'electron';
import { APP_NAME, APP_VERSION } from './app-meta';
import { bindCommands } from './contract-handlers';
import { createDispatcher } from './dispatch';
import { toErrorData } from './host/errors';
import { Host, defaultRegistry } from './host/host';
import { DisposableStore, markAsSingleton } from './host/lifecycle';
import { Redactor } from './host/secrets/redactor';
import { bindIpc, forwardEvents, isAppTopFrame } from './ipc';
import { AddServerConsent } from './shell/add-server-consent';
import { logFolderHandlers } from './shell/log-folder';
import { folderPickerHandlers } from './shell/folder-picker';
import { appSandboxUrl, registerAppSandboxScheme, serveAppSandbox } from './shell/app-sandbox-protocol';
import { BundleFileInbox } from './shell/bundle-files';
import { withShellCommands } from './shell/shell-handlers';
import { DeepLinkInbox, registerProtocolClient } from './shell/deep-link';
import { mirrorConsole, RotatingLog } from './shell/log';
import { installAppMenu } from './shell/menu';
import { QuitController, quitOnOsShutdown, quitOnSessionEnd } from './shell/quit';
import { ShellSettingsStore } from './shell/settings';
import { updateCheckMessage, UpdateService } from './shell/updates';
import { trackWindowState } from './shell/window-state';
import { createMainWindow, isAppUrl, resolveRendererTarget } from './window';

/** out/ — this file is bundled to out/main/index.js, beside out/preload and out/renderer. */
const outDir = join(import.meta.dirname, '..');
const renderer = resolveRendererTarget({
  isPackaged: app.isPackaged,
  devServerUrl: process.env.ELECTRON_RENDERER_URL,
  rendererFile: join(outDir, 'renderer', 'index.html'),
});

function logsDir(): string {
  try {
    return app.getPath('logs');
  } catch {
    return join(app.getPath('userData'), 'logs');
  }
}

/** The OS-conventional log folder, rotated; lines are redacted once start() made the redactor it shares with the Host. */
const logDir = logsDir();
const log = new RotatingLog({ dir: logDir });
// As long as the process: the last lines (servers stopped, exiting) come after `owned` is disposed.
markAsSingleton(mirrorConsole(console, log));
log.info(`${APP_NAME} ${APP_VERSION} starting (Electron ${process.versions.electron ?? '?'}, ${process.platform}/${process.arch}, packaged: ${app.isPackaged})`);

/** Everything long-lived hangs here; disposing it (on quit) stops every server the Host runs. */
const owned = new DisposableStore();
const links = new DeepLinkInbox();
const bundleFiles = new BundleFileInbox();
let mainWindow: BrowserWindow | undefined;

function focusMainWindow(): void {
  if (!mainWindow || mainWindow.isDestroyed()) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

function notify(title: string, message: string): void {
  const options = { type: 'warning' as const, title, message };
  const shown = mainWindow && !mainWindow.isDestroyed() ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options);
  shown.catch((error: unknown) => log.warn('Could not show a message box', error));
}

function openWindow(host: Host): void {
  const window = createMainWindow({
    preloadPath: join(outDir, 'preload', 'index.cjs'),
    renderer,
    openExternal: (url) => shell.openExternal(url),
    log: (message, error) => log.error(message, error),
  });
  const forwarding = owned.add(forwardEvents(host, window.webContents));
  // Lives as long as the window, not the Host: the window closes after the servers stopped on
  // quit, and that close is when its final position is saved.
  const tracking = trackWindowState(window, {
    path: join(app.getPath('userData'), 'window-state.json'),
    workAreas: () => screen.getAllDisplays().map((display) => display.workArea),
    log: (message, error) => log.warn(message, error),
  });
  quitOnSessionEnd(window, () => app.quit(), process.platform);
  window.on('closed', () => {
    owned.delete(forwarding);
    void forwarding.dispose();
    void tracking.dispose();
    if (mainWindow === window) mainWindow = undefined;
  });
  mainWindow = window;
}

async function start(quit: QuitController): Promise<void> {
  const userData = app.getPath('userData');
  // One redactor for the Host and the log: every secret the Host resolves is masked in the log too.
  const redactor = new Redactor();
  log.setRedactor((text) => redactor.redact(text));
  const host = owned.add(
    await Host.create({
      configPath: join(userData, 'harbor.json'),
      dataDir: userData,
      appName: APP_NAME,
      appVersion: APP_VERSION,
      mode: 'electron',
      electronVersion: process.versions.electron,
      defaultRegistry,
      // Bundled servers run on Electron's own Node. Packaged, resources/ sits beside app.asar.
      launchVariables: {
        node: process.execPath,
        nodeEnv: { ELECTRON_RUN_AS_NODE: '1' },
        resources: app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources'),
      },
      // OAuth sign-in pages open in the system browser (the Host allows only https or loopback http).
      openBrowser: (url) => shell.openExternal(url.href),
      redactor,
    }),
  );
  // Servers a crashed run left behind (a Harbor that dies stops nothing) are stopped beside the
  // start of ours (never ours: they carry this run's instance).
  void host.sweepOrphans().then(({ stopped }) => {
    if (stopped.length > 0) log.info(`stopped ${stopped.length} server process(es) left running by a Harbor that did not quit cleanly: ${stopped.map((s) => s.pid).join(', ')}`);
  });

  const updates = owned.add(
    new UpdateService({
      isPackaged: app.isPackaged,
      currentVersion: APP_VERSION,
      settings: new ShellSettingsStore(join(userData, 'settings.json'), (message, error) => log.warn(message, error)),
      loadUpdater: async () => (await import('electron-updater')).default.autoUpdater,
      emit: (status) => host.shell.emit('app.update', status),
      restartToInstall: (install) => quit.stopThen(install),
      log,
    }),
  );
  const linkConsent = owned.add(
    new AddServerConsent({
      ask: (request, signal) => host.consent.ask(request, signal),
      serverExists: (name) => host.servers.list().some((server) => server.name === name),
      addServer: (name, config) => host.registry.add(name, config),
      approveLaunch: (name, choice) => (choice === 'always' ? host.servers.approveLaunch(name) : host.consent.approveLaunchesForSession(name)),
      notify,
      reveal: focusMainWindow,
      log: (message) => log.info(message),
    }),
  );
  // MCP Apps: their sandbox proxies are served on harbor-app:, framed only by the Harbor page.
  const pageOrigin = renderer.kind === 'file' ? 'file://' : new URL(renderer.url).origin;
  owned.add(serveAppSandbox(session.defaultSession, pageOrigin, (id) => host.apps.sandboxPolicy(id)));
  owned.add(host.apps.attachSandbox({ urlFor: appSandboxUrl }));
  owned.add(
    bindIpc({
      ipcMain,
      dispatch: createDispatcher({
        ...withShellCommands(bindCommands(host), { updates }),
        ...folderPickerHandlers(dialog, () => mainWindow),
        ...logFolderHandlers(shell, () => host.harborLog.folder().path),
      }),
      isTrustedSender: (frame) => isAppTopFrame(frame, (url) => isAppUrl(url, renderer.url)),
    }),
  );
  // A quit that came while the Host was loading has already disposed it: open nothing.
  if (owned.isDisposed) return;

  installAppMenu({
    platform: process.platform,
    appName: APP_NAME,
    isPackaged: app.isPackaged,
    actions: {
      openLogsFolder: () => {
        void shell.openPath(logDir).then((problem) => problem && log.warn(`Could not open ${logDir}: ${problem}`));
      },
      checkForUpdates: () => {
        void updates.check().then((status) => {
          const message = updateCheckMessage(status);
          if (message) notify('Software update', message);
        });
      },
    },
  });
  owned.add(quitOnOsShutdown(() => app.quit(), { powerMonitor, platform: process.platform }));
  openWindow(host);
  registerProtocolClient(app, (message) => log.info(message));
  // Links wait until now: the consent dialog needs the Host and a window to be shown in.
  links.setHandler((link) => void linkConsent.handle(link));
  links.fromArgv(process.argv);
  // A double-clicked .mcpb: the Host reads it and the window shows its review (nothing installs until the person says so).
  bundleFiles.setHandler((path) => {
    focusMainWindow();
    void host.bundles.openFile(path, true).catch((error: unknown) => notify('This bundle cannot be installed', toErrorData(error).message));
  });
  bundleFiles.fromArgv(process.argv.slice(1));
  updates.start();
  // Enabled servers start with the app; a launch that needs consent asks in the window.
  void host.servers.startAll();
  // macOS keeps the app alive with no window; clicking the dock icon opens one again.
  app.on('activate', () => {
    if (!owned.isDisposed && BrowserWindow.getAllWindows().length === 0) openWindow(host);
  });
}

// Every renderer sandboxed, whatever a future window's preferences say.
app.enableSandbox();
// Before ready, or the scheme gets no origin: MCP Apps' sandbox proxies live there.
registerAppSandboxScheme(protocol);

if (!app.requestSingleInstanceLock()) {
  // Another Harbor owns the servers and the config file: hand over to it (it focuses its window,
  // and takes the harbor:// link from our argv if there is one).
  app.quit();
} else {
  // macOS delivers links through 'open-url', possibly before 'ready'.
  links.bindOpenUrl(app);
  bundleFiles.bindOpenFile(app);
  app.on('second-instance', (_event, argv, workingDirectory) => {
    focusMainWindow();
    links.fromArgv(argv);
    bundleFiles.fromArgv(argv.slice(1), workingDirectory);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Quitting (menu, Cmd-Q, last window, OS shutdown, update restart) stops every server first.
  // It holds every quit until the end of the process, so nothing disposes it.
  const quit = markAsSingleton(new QuitController({ app, stop: () => owned.dispose(), log: (message, error) => log.info(message, error) }));

  app
    .whenReady()
    .then(() => start(quit))
    .catch((error: unknown) => {
      const { message } = toErrorData(error);
      log.error('Harbor could not start', error);
      dialog.showErrorBox('Harbor could not start', message);
      app.exit(1);
    });
}
