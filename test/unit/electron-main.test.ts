/**
 * main/index.ts, the composition root, with Electron's modules stood in (the binary cannot run
 * here) and everything behind them real: a real Host on a temp user-data dir, the real dispatcher,
 * the real IPC binding, the real log file, window-state file and consent flow. Checks the wiring
 * and the app lifecycle: single instance, the window (restored where it was), the menu, IPC
 * reaching the Host, events reaching the window, harbor:// links through the consent dialog,
 * updates off in development, and quit (here: OS shutdown) disposing the Host before exiting.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type ConsentRequest } from '../../preload/contract';
import { checkLeaksAtEndOfFile } from '../helpers/leak-tracker';
import { waitFor } from '../helpers/wait-for';

// The tests are the app's life in order (start, use, quit): what it creates lives across them.
checkLeaksAtEndOfFile();

const electron = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void;
  class Emitter {
    readonly listeners = new Map<string, Listener[]>();
    on(name: string, listener: Listener) {
      this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
      return this;
    }
    once(name: string, listener: Listener) {
      return this.on(name, listener);
    }
    removeListener(name: string, listener: Listener) {
      this.listeners.set(name, (this.listeners.get(name) ?? []).filter((l) => l !== listener));
      return this;
    }
    emit(name: string, ...args: unknown[]) {
      for (const l of this.listeners.get(name) ?? []) l(...args);
    }
  }
  const log: string[] = [];
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (resolveReady = r));
  const paths = { userData: '', logs: '', appPath: '' };

  class FakeApp extends Emitter {
    isPackaged = false;
    exitCode: number | undefined;
    enableSandbox() {
      log.push('enableSandbox');
    }
    requestSingleInstanceLock() {
      log.push('requestSingleInstanceLock');
      return true;
    }
    whenReady() {
      return ready;
    }
    getPath(name: string) {
      if (name === 'userData') return paths.userData;
      if (name === 'logs') return paths.logs;
      throw new Error(`unexpected getPath(${name})`);
    }
    getAppPath() {
      return paths.appPath;
    }
    setAsDefaultProtocolClient(scheme: string) {
      log.push(`setAsDefaultProtocolClient(${scheme})`);
      return true;
    }
    /** Like Electron: quit emits before-quit, and stops if a listener prevented it. */
    quit() {
      log.push('quit');
      const event = { prevented: false, preventDefault() {
        this.prevented = true;
      } };
      this.emit('before-quit', event);
      if (!event.prevented) log.push('quit:proceeds');
    }
    exit(code: number) {
      log.push(`exit(${code})`);
      this.exitCode = code;
    }
  }
  const app = new FakeApp();

  const windows: FakeBrowserWindow[] = [];
  class FakeBrowserWindow extends Emitter {
    static getAllWindows() {
      return windows.filter((w) => !w.destroyed);
    }
    destroyed = false;
    loadedFile: string | undefined;
    bounds = { x: 0, y: 0, width: 1200, height: 800 };
    readonly sent: unknown[][] = [];
    readonly webContents = Object.assign(new Emitter(), {
      session: {
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
        webRequest: { onHeadersReceived: () => undefined },
      },
      setWindowOpenHandler: () => undefined,
      send: (...args: unknown[]) => this.sent.push(args),
      isDestroyed: () => this.destroyed,
    });
    constructor(readonly options: unknown) {
      super();
      windows.push(this);
    }
    loadFile(path: string) {
      this.loadedFile = path;
      return Promise.resolve();
    }
    loadURL() {
      return Promise.reject(new Error('no dev server in this test'));
    }
    show() {}
    isDestroyed() {
      return this.destroyed;
    }
    isMinimized() {
      return true;
    }
    restore() {
      log.push('window.restore');
    }
    focus() {
      log.push('window.focus');
    }
    setBounds(bounds: { x: number; y: number; width: number; height: number }) {
      this.bounds = bounds;
      log.push(`window.setBounds(${bounds.x},${bounds.y},${bounds.width},${bounds.height})`);
    }
    getNormalBounds() {
      return this.bounds;
    }
    isMaximized() {
      return false;
    }
    maximize() {
      log.push('window.maximize');
    }
  }

  type Handler = (event: unknown, envelope: unknown) => Promise<unknown>;
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: (channel: string, handler: Handler) => {
      handlers.set(channel, handler);
    },
    removeHandler: (channel: string) => {
      handlers.delete(channel);
    },
  };
  // MCP Apps' sandbox scheme: registered before ready, served on the default session.
  const schemes: Array<{ scheme: string; privileges?: Record<string, boolean> }> = [];
  const protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  const menus: Array<Array<{ label?: string; role?: string; submenu?: Array<{ label?: string; role?: string; click?: () => void }> }>> = [];
  const messageBoxes: Array<{ title?: string; message: string }> = [];

  return {
    log,
    resolveReady,
    paths,
    windows,
    handlers,
    menus,
    messageBoxes,
    schemes,
    protocolHandlers,
    module: {
      app,
      protocol: {
        registerSchemesAsPrivileged: (entries: typeof schemes) => schemes.push(...entries),
      },
      session: {
        defaultSession: {
          protocol: {
            handle: (scheme: string, handler: (request: Request) => Response | Promise<Response>) => {
              protocolHandlers.set(scheme, handler);
            },
            unhandle: (scheme: string) => {
              protocolHandlers.delete(scheme);
            },
          },
        },
      },
      BrowserWindow: FakeBrowserWindow,
      ipcMain,
      Menu: {
        buildFromTemplate: (template: (typeof menus)[number]) => template,
        setApplicationMenu: (menu: (typeof menus)[number]) => menus.push(menu),
      },
      powerMonitor: new Emitter(),
      screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
      shell: {
        openExternal: async () => undefined,
        openPath: async (path: string) => {
          log.push(`openPath(${path})`);
          return '';
        },
      },
      dialog: {
        showErrorBox: (title: string, message: string) => log.push(`errorBox: ${title}: ${message}`),
        showMessageBox: async (...args: unknown[]) => {
          messageBoxes.push(args.at(-1) as { title?: string; message: string });
          return { response: 0, checkboxChecked: false };
        },
      },
    },
  };
});

vi.mock('electron', () => electron.module);

const userData = mkdtempSync(join(tmpdir(), 'harbor-electron-main-'));
electron.paths.userData = userData;
electron.paths.logs = join(userData, 'logs');
// Unpackaged, the bundled example server is found under <app path>/resources: the repo here.
electron.paths.appPath = join(import.meta.dirname, '..', '..');
// Where the window was last time (on a display that exists): it opens there again.
mkdirSync(userData, { recursive: true });
writeFileSync(join(userData, 'window-state.json'), JSON.stringify({ x: 40, y: 50, width: 1000, height: 700, maximized: false }));
afterAll(() => {
  // The window is destroyed at the end (its position tracking ends with it).
  for (const window of electron.windows) window.emit('closed');
  // Safety net if a test failed before quit: leave no example server behind.
  for (const pid of exampleServerPids()) process.kill(pid, 'SIGKILL');
  rmSync(userData, { recursive: true, force: true });
});

/** Live processes carrying this run's notes dir in their environment (Linux /proc; else []). */
function exampleServerPids(): number[] {
  if (process.platform !== 'linux') return [];
  const marker = `HARBOR_NOTES_DIR=${join(userData, 'notes')}`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(marker)) pids.push(Number(entry));
    } catch {
      // gone already, or not ours to read
    }
  }
  return pids;
}

/** The shell's work here spans real processes: up to 20 s on a busy machine. */
const until = (condition: () => boolean, what: string) => waitFor(condition, what, 20_000);

function invoke(command: string, payload: unknown = {}) {
  const window = electron.windows[0]!;
  const handler = electron.handlers.get(IPC_INVOKE_CHANNEL)!;
  const frame = { url: new URL(`file://${window.loadedFile!}`).href, parent: null };
  return handler({ senderFrame: frame }, { command, payload }) as Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
}

const linkFor = (name: string, config: Record<string, unknown>) =>
  `harbor://add-server?config=${Buffer.from(JSON.stringify({ name, config })).toString('base64url')}`;

describe('main/index.ts (composition root)', () => {
  it('before ready: sandboxes every renderer and takes the single-instance lock, creating nothing', async () => {
    await import('../../main/index');
    expect(electron.log).toEqual(['enableSandbox', 'requestSingleInstanceLock']);
    expect(electron.windows).toHaveLength(0);
    expect(electron.handlers.size).toBe(0);
    // The log exists from the first line, in the OS-conventional folder.
    expect(readFileSync(join(userData, 'logs', 'harbor.log'), 'utf8')).toMatch(/INFO {2}Harbor .* starting/);
  });

  it('a macOS open-url before ready waits for the app; a bad link is refused with a message, never added', async () => {
    const event = { prevented: false, preventDefault() {
      this.prevented = true;
    } };
    electron.module.app.emit('open-url', event, 'harbor://add-server?config=not*valid');
    expect(event.prevented).toBe(true);
    expect(electron.messageBoxes).toEqual([]);
  });

  it('on ready: builds the Host in userData, binds IPC and opens the one window where it was', async () => {
    electron.resolveReady();
    await until(() => electron.windows.length === 1, 'the window');
    expect(existsSync(join(userData, 'harbor.json'))).toBe(true);
    expect([...electron.handlers.keys()]).toEqual([IPC_INVOKE_CHANNEL]);
    const window = electron.windows[0]!;
    expect(window.loadedFile).toMatch(/renderer[/\\]index\.html$/);
    expect((window.options as { webPreferences: { preload: string; sandbox: boolean } }).webPreferences).toMatchObject({
      preload: expect.stringMatching(/preload[/\\]index\.cjs$/),
      sandbox: true,
    });
    expect(electron.log).toContain('window.setBounds(40,50,1000,700)');
    // Development run: harbor:// is not claimed from an installed Harbor.
    expect(electron.log.filter((l) => l.startsWith('setAsDefaultProtocolClient'))).toEqual([]);
    // The link that came before ready was handled now: refused, with a message.
    await until(() => electron.messageBoxes.length === 1, 'the refusal message');
    expect(electron.messageBoxes[0]!.message).toMatch(/not accepted: "config" must be base64url/);
  });

  it('installs the app menu: Edit roles, and Help → Open Logs Folder opens the logs folder', () => {
    const menu = electron.menus.at(-1)!;
    const edit = menu.find((m) => m.label === 'Edit')!.submenu!.map((i) => i.role);
    expect(edit).toEqual(expect.arrayContaining(['copy', 'paste', 'cut', 'selectAll']));
    const help = menu.find((m) => m.role === 'help')!.submenu!;
    help.find((i) => i.label === 'Open Logs Folder')!.click!();
    expect(electron.log).toContain(`openPath(${join(userData, 'logs')})`);
  });

  it("serves MCP Apps' sandbox on its own harbor-app: scheme (standard and secure, registered before ready) and lets apps open", async () => {
    expect(electron.schemes).toEqual([expect.objectContaining({ scheme: 'harbor-app', privileges: expect.objectContaining({ standard: true, secure: true }) })]);
    const handler = electron.protocolHandlers.get('harbor-app')!;
    const unknown = await handler(new Request('harbor-app://sandbox/app/not-open?parent=file%3A%2F%2F'));
    expect(unknown.status).toBe(404);
    const foreign = await handler(new Request('harbor-app://sandbox/app/not-open?parent=https%3A%2F%2Fevil.example'));
    expect(foreign.status).toBe(403);
    // The sandbox is attached: a tool without an app is refused for that reason, not for want of a window.
    const opened = await invoke('apps.open', { server: 'notes', tool: 'list_notes' });
    expect(opened).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: expect.stringMatching(/has no app/) } });
  });

  it('answers app.info from the app frame over IPC, and refuses another frame', async () => {
    const window = electron.windows[0]!;
    const appUrl = new URL(`file://${window.loadedFile!}`).href;
    const handler = electron.handlers.get(IPC_INVOKE_CHANNEL)!;
    const ok = await handler({ senderFrame: { url: `${appUrl}#/settings`, parent: null } }, { command: 'app.info', payload: {} });
    expect(ok).toMatchObject({
      ok: true,
      value: { name: 'Harbor', mode: 'electron', configPath: join(userData, 'harbor.json'), dataDir: userData },
    });
    const refused = await handler({ senderFrame: { url: 'https://evil.example/', parent: null } }, { command: 'app.info', payload: {} });
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('updates are off in development: app.updateStatus says so, installing is refused', async () => {
    expect(await invoke('app.updateStatus')).toMatchObject({ ok: true, value: { state: 'unsupported', message: expect.stringMatching(/development/) } });
    expect(await invoke('app.checkForUpdates')).toMatchObject({ ok: true, value: { state: 'unsupported' } });
    expect(await invoke('app.installUpdate')).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('lists the first-launch registry (the bundled example server) through IPC', async () => {
    const list = await invoke('servers.list');
    expect(list.ok).toBe(true);
    expect((list.value as { name: string }[]).map((s) => s.name)).toContain('notes');
  });

  it('a second instance focuses the existing window', () => {
    electron.log.length = 0;
    electron.module.app.emit('second-instance', {}, ['harbor'], '/');
    expect(electron.log).toEqual(['window.restore', 'window.focus']);
  });

  it('forwards Host events to the window: restarting the example server is seen as state changes', async () => {
    const window = electron.windows[0]!;
    window.sent.length = 0;
    // A real child process (the bundled example server on this Node); quit below must stop it.
    const restarted = await invoke('servers.restart', { name: 'notes' });
    expect(restarted).toMatchObject({ ok: true, value: { name: 'notes' } });
    await until(
      () => window.sent.some(([, e]) => (e as { payload?: { summary?: { state?: { kind?: string } } } }).payload?.summary?.state?.kind === 'ready'),
      'a servers.changed event with the server ready',
    );
    for (const [channel, envelope] of window.sent) {
      expect(channel).toBe(IPC_EVENT_CHANNEL);
      // servers.changed, the kept copy of it for windows opened later (serverEvents.entry), and the traffic.
      expect(['servers.changed', 'serverEvents.entry', 'traffic.message']).toContain((envelope as { event: string }).event);
      if ((envelope as { event: string }).event === 'servers.changed') expect(envelope).toMatchObject({ payload: { name: 'notes' } });
    }
  });

  it('a harbor:// link from a second launch becomes the launch-consent dialog; the server is added only on approval', async () => {
    const window = electron.windows[0]!;
    window.sent.length = 0;
    const config = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    electron.module.app.emit('second-instance', {}, ['harbor', '--flag', linkFor('linked', config)], '/');
    await until(() => window.sent.some(([, e]) => (e as { event: string }).event === 'consent.request'), 'the consent request in the window');
    const request = (window.sent.find(([, e]) => (e as { event: string }).event === 'consent.request')![1] as { payload: ConsentRequest }).payload;
    expect(request).toMatchObject({ kind: 'launch', server: 'linked', trusted: false, launch: { commandLine: expect.stringContaining(process.execPath) } });
    expect(((await invoke('servers.list')).value as { name: string }[]).map((s) => s.name)).not.toContain('linked');
    const pending = await invoke('consent.pending');
    expect((pending.value as ConsentRequest[]).map((r) => r.id)).toContain(request.id);

    expect(await invoke('consent.respond', { id: request.id, decision: 'always' })).toEqual({ ok: true, value: { accepted: true } });
    // The flow's last step is its log line (after the registry save and the launch approval):
    // waiting on the file alone raced the approval.
    const logged = () => existsSync(join(userData, 'logs', 'harbor.log')) && readFileSync(join(userData, 'logs', 'harbor.log'), 'utf8').includes('harbor:// link: added "linked"');
    await until(logged, 'the link flow to finish');
    expect(readFileSync(join(userData, 'harbor.json'), 'utf8')).toContain('"linked"');
    expect(window.sent.some(([, e]) => (e as { event: string; payload: { decision?: string } }).event === 'consent.resolved')).toBe(true);
    expect(((await invoke('consent.list')).value as { launches: { server: string }[] }).launches.map((l) => l.server)).toContain('linked');
    expect(readFileSync(join(userData, 'logs', 'harbor.log'), 'utf8')).toContain('harbor:// link: added "linked"');
  });

  it('OS shutdown quits through the same path: the Host is disposed (IPC unbound, servers stopped) before exit; a second quit while stopping exits', async () => {
    if (process.platform === 'linux') expect(exampleServerPids().length).toBeGreaterThan(0);
    electron.log.length = 0;
    let delayed = false;
    electron.module.powerMonitor.emit('shutdown', { preventDefault: () => (delayed = true) }); // first: prevented, disposal starts
    electron.module.app.quit(); // second, while stopping: forced exit
    expect(delayed).toBe(true);
    expect(electron.log.slice(0, 3)).toEqual(['quit', 'quit', 'exit(1)']);
    await until(() => electron.log.includes('quit:proceeds'), 'the quit to proceed after disposal');
    expect(electron.handlers.size).toBe(0);
    expect(electron.log.filter((l) => l === 'quit:proceeds')).toHaveLength(1);
    // The Host stopped the example server (and anything it started) on the way out.
    expect(exampleServerPids()).toEqual([]);
    expect(readFileSync(join(userData, 'logs', 'harbor.log'), 'utf8')).toContain('Every server stopped: exiting');
  });

  it('the window remembers where it was when it closes', () => {
    const window = electron.windows[0]!;
    window.bounds = { x: 70, y: 80, width: 900, height: 600 };
    window.emit('close');
    expect(JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8'))).toEqual({ x: 70, y: 80, width: 900, height: 600, maximized: false });
  });

  it('closing every window quits (except on macOS)', () => {
    electron.log.length = 0;
    electron.module.app.emit('window-all-closed');
    expect(electron.log.includes('quit')).toBe(process.platform !== 'darwin');
  });
});
