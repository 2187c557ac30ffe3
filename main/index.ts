/**
 * Electron composition root: builds the Host, the IPC binding and the window, and wires the app's
 * lifecycle to the Host's dispose tree. Every decision lives in the modules it calls.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, shell } from 'electron';
import { APP_NAME, APP_VERSION } from './app-meta';
import { bindCommands } from './commands';
import { createDispatcher } from './dispatch';
import { toErrorData } from './host/errors';
import { Host, defaultRegistry } from './host/host';
import { DisposableStore } from './host/lifecycle';
import { bindIpc, forwardEvents, isAppTopFrame } from './ipc';
import { createMainWindow, isAppUrl, resolveRendererTarget } from './window';

/** out/ — this file is bundled to out/main/index.js, beside out/preload and out/renderer. */
const outDir = join(import.meta.dirname, '..');
const renderer = resolveRendererTarget({
  isPackaged: app.isPackaged,
  devServerUrl: process.env.ELECTRON_RENDERER_URL,
  rendererFile: join(outDir, 'renderer', 'index.html'),
});

/** Everything long-lived hangs here; disposing it (on quit) stops every server the Host runs. */
const owned = new DisposableStore();
let mainWindow: BrowserWindow | undefined;
let quitting: 'no' | 'stopping' | 'done' = 'no';

function openWindow(host: Host): void {
  const window = createMainWindow({
    preloadPath: join(outDir, 'preload', 'index.cjs'),
    renderer,
    openExternal: (url) => shell.openExternal(url),
  });
  const forwarding = owned.add(forwardEvents(host, window.webContents));
  window.on('closed', () => {
    owned.delete(forwarding);
    void forwarding.dispose();
    if (mainWindow === window) mainWindow = undefined;
  });
  mainWindow = window;
}

async function start(): Promise<void> {
  const userData = app.getPath('userData');
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
    }),
  );
  owned.add(
    bindIpc({
      ipcMain,
      dispatch: createDispatcher(bindCommands(host)),
      isTrustedSender: (frame) => isAppTopFrame(frame, (url) => isAppUrl(url, renderer.url)),
    }),
  );
  // A quit that came while the Host was loading has already disposed it: open nothing.
  if (owned.isDisposed) return;
  openWindow(host);
  // macOS keeps the app alive with no window; clicking the dock icon opens one again.
  app.on('activate', () => {
    if (!owned.isDisposed && BrowserWindow.getAllWindows().length === 0) openWindow(host);
  });
}

// Every renderer sandboxed, whatever a future window's preferences say.
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  // Another Harbor owns the servers and the config file: hand over to it (it focuses its window).
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow || mainWindow.isDestroyed()) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Quitting stops every server first (no orphaned processes). A second quit while that runs
  // (a stuck server, an impatient user) exits at once.
  app.on('before-quit', (event) => {
    if (quitting === 'done') return;
    event.preventDefault();
    if (quitting === 'stopping') {
      app.exit(1);
      return;
    }
    quitting = 'stopping';
    void owned
      .dispose()
      .catch((error: unknown) => console.error('Harbor: shutdown did not finish cleanly:', toErrorData(error).message))
      .finally(() => {
        quitting = 'done';
        app.quit();
      });
  });

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      const { message } = toErrorData(error);
      dialog.showErrorBox('Harbor could not start', message);
      app.exit(1);
    });
}
