/**
 * Quitting stops every server first. Every way out — the menu, Cmd-Q, closing the last window on
 * Windows/Linux, the OS shutting down, restarting into an update — reaches `before-quit`, which
 * is held until the Host is disposed (each server through its stop ladder: stdin EOF → SIGTERM →
 * SIGKILL of the process group), then let through. A second quit while that runs (a stuck server,
 * an impatient person) exits at once: the person's intent wins over a clean stop.
 */
import type { App, BrowserWindow, PowerMonitor } from 'electron';
import { markAsDisposed, toDisposable, trackDisposable, type Disposable } from '../host/lifecycle';

export type QuitState = 'running' | 'stopping' | 'done';

export interface QuitControllerDeps {
  readonly app: Pick<App, 'on' | 'removeListener' | 'quit' | 'exit'>;
  /** Disposes everything (the Host: every server). */
  readonly stop: () => Promise<void>;
  readonly log: (message: string, error?: unknown) => void;
}

export class QuitController implements Disposable {
  private current: QuitState = 'running';
  private readonly onBeforeQuit = (event: { preventDefault(): void }) => {
    if (this.current === 'done') return;
    event.preventDefault();
    if (this.current === 'stopping') {
      this.deps.log('Quit again while stopping servers: exiting now');
      this.deps.app.exit(1);
      return;
    }
    this.stopThen(() => this.deps.app.quit());
  };

  constructor(private readonly deps: QuitControllerDeps) {
    deps.app.on('before-quit', this.onBeforeQuit);
    trackDisposable(this);
  }

  get state(): QuitState {
    return this.current;
  }

  /** Stops every server, then runs `then` (app.quit, or the updater's quitAndInstall). */
  stopThen(then: () => void): void {
    if (this.current !== 'running') return;
    this.current = 'stopping';
    this.deps.log('Quitting: stopping every server');
    void this.deps
      .stop()
      .catch((error: unknown) => this.deps.log('Shutdown did not finish cleanly', error))
      .finally(() => {
        this.current = 'done';
        this.deps.log('Every server stopped: exiting');
        then();
      });
  }

  dispose(): void {
    markAsDisposed(this);
    this.deps.app.removeListener('before-quit', this.onBeforeQuit);
  }
}

/**
 * The OS is shutting down or the session ends: quit through the same path. On Linux and macOS
 * powerMonitor's 'shutdown' can be delayed (preventDefault) until the app exits; on Windows the
 * window's 'session-end' cannot, so the stop starts and gets as far as Windows allows.
 */
export function quitOnOsShutdown(
  quit: () => void,
  sources: { readonly powerMonitor?: Pick<PowerMonitor, 'on' | 'removeListener'>; readonly platform: NodeJS.Platform },
): Disposable {
  const onShutdown = (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    quit();
  };
  if (sources.platform !== 'win32') sources.powerMonitor?.on('shutdown', onShutdown);
  return toDisposable(() => {
    sources.powerMonitor?.removeListener('shutdown', onShutdown);
  });
}

/** Windows: the window hears that the session ends (log off, restart, shutdown). */
export function quitOnSessionEnd(window: Pick<BrowserWindow, 'on'>, quit: () => void, platform: NodeJS.Platform): void {
  if (platform === 'win32') window.on('session-end', () => quit());
}
