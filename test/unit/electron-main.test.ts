/**
 * main/index.ts, the composition root, with Electron's modules stood in (the binary cannot run
 * here) and everything behind them real: a real Host on a temp user-data dir, the real dispatcher,
 * the real IPC binding. Checks the wiring and the app lifecycle: single instance, the window, IPC
 * reaching the Host, events reaching the window, and quit disposing the Host before exiting.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../preload/contract';

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
    emit(name: string, ...args: unknown[]) {
      for (const l of this.listeners.get(name) ?? []) l(...args);
    }
  }
  const log: string[] = [];
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (resolveReady = r));
  const userData = { path: '' };
  const appPath = { path: '' };

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
      if (name !== 'userData') throw new Error(`unexpected getPath(${name})`);
      return userData.path;
    }
    getAppPath() {
      return appPath.path;
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

  return {
    log,
    resolveReady,
    userData,
    appPath,
    windows,
    handlers,
    module: {
      app,
      BrowserWindow: FakeBrowserWindow,
      ipcMain,
      shell: { openExternal: async () => undefined },
      dialog: { showErrorBox: (title: string, message: string) => log.push(`errorBox: ${title}: ${message}`) },
    },
  };
});

vi.mock('electron', () => electron.module);

const userData = mkdtempSync(join(tmpdir(), 'harbor-electron-main-'));
electron.userData.path = userData;
// Unpackaged, the bundled example server is found under <app path>/resources: the repo here.
electron.appPath.path = join(import.meta.dirname, '..', '..');
afterAll(() => {
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

const tick = () => new Promise((r) => setTimeout(r, 10));
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

describe('main/index.ts (composition root)', () => {
  it('before ready: sandboxes every renderer and takes the single-instance lock, creating nothing', async () => {
    await import('../../main/index');
    expect(electron.log).toEqual(['enableSandbox', 'requestSingleInstanceLock']);
    expect(electron.windows).toHaveLength(0);
    expect(electron.handlers.size).toBe(0);
  });

  it('on ready: builds the Host in userData, binds IPC and opens the one window', async () => {
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

  it('lists the first-launch registry (the bundled example server) through IPC', async () => {
    const window = electron.windows[0]!;
    const handler = electron.handlers.get(IPC_INVOKE_CHANNEL)!;
    const frame = { url: new URL(`file://${window.loadedFile!}`).href, parent: null };
    const list = (await handler({ senderFrame: frame }, { command: 'servers.list', payload: {} })) as {
      ok: boolean;
      value?: { name: string }[];
    };
    expect(list.ok).toBe(true);
    expect(list.value?.map((s) => s.name)).toContain('notes');
  });

  it('a second instance focuses the existing window', () => {
    electron.log.length = 0;
    electron.module.app.emit('second-instance');
    expect(electron.log).toEqual(['window.restore', 'window.focus']);
  });

  it('forwards Host events to the window: restarting the example server is seen as state changes', async () => {
    const window = electron.windows[0]!;
    const handler = electron.handlers.get(IPC_INVOKE_CHANNEL)!;
    const frame = { url: new URL(`file://${window.loadedFile!}`).href, parent: null };
    // A real child process (the bundled example server on this Node); quit below must stop it.
    const restarted = await handler({ senderFrame: frame }, { command: 'servers.restart', payload: { name: 'notes' } });
    expect(restarted).toMatchObject({ ok: true, value: { name: 'notes' } });
    await until(
      () => window.sent.some(([, e]) => (e as { payload?: { summary?: { state?: { kind?: string } } } }).payload?.summary?.state?.kind === 'ready'),
      'a servers.changed event with the server ready',
    );
    for (const [channel, envelope] of window.sent) {
      expect(channel).toBe(IPC_EVENT_CHANNEL);
      expect(envelope).toMatchObject({ event: 'servers.changed', payload: { name: 'notes' } });
    }
  });

  it('quit: disposes the Host (IPC unbound) before letting the app quit; a second quit while stopping exits', async () => {
    if (process.platform === 'linux') expect(exampleServerPids().length).toBeGreaterThan(0);
    electron.log.length = 0;
    electron.module.app.quit(); // first: prevented, disposal starts
    electron.module.app.quit(); // second, while stopping: forced exit
    expect(electron.log.slice(0, 3)).toEqual(['quit', 'quit', 'exit(1)']);
    await until(() => electron.log.includes('quit:proceeds'), 'the quit to proceed after disposal');
    expect(electron.handlers.size).toBe(0);
    expect(electron.log.filter((l) => l === 'quit:proceeds')).toHaveLength(1);
    // The Host stopped the example server (and anything it started) on the way out.
    expect(exampleServerPids()).toEqual([]);
  });

  it('closing every window quits (except on macOS)', () => {
    electron.log.length = 0;
    electron.module.app.emit('window-all-closed');
    expect(electron.log.includes('quit')).toBe(process.platform !== 'darwin');
  });
});
