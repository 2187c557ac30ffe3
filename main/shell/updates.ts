/**
 * Self-update through electron-updater, feed configured by electron-builder.yml's `publish`
 * (baked into the package as resources/app-update.yml).
 *
 * - Off in development (`app.isPackaged` false): the updater is never even loaded.
 * - The person's setting (settings.json "autoUpdate") turns the automatic checks off; a check
 *   they ask for (menu, Settings) still runs.
 * - A found update downloads in the background and the renderer is told which version is coming
 *   (`app.update` events); it installs only when the person chooses to restart
 *   (`app.installUpdate`), and that restart stops every server through the stop ladder first.
 */
import type { AppUpdater } from 'electron-updater';
import type { CommandResponse, UpdateStatus } from '../../preload/contract';
import { HarborError } from '../host/errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../host/lifecycle';
import type { Logger } from './log';

export type UpdaterLike = Pick<AppUpdater, 'autoDownload' | 'autoInstallOnAppQuit' | 'logger' | 'on' | 'checkForUpdates' | 'quitAndInstall'>;

export interface UpdateServiceDeps {
  readonly isPackaged: boolean;
  readonly currentVersion: string;
  readonly settings: { readonly value: { autoUpdate: boolean }; update(patch: { autoUpdate: boolean }): Promise<unknown> };
  /** Loads electron-updater's autoUpdater (only ever called in a packaged app). */
  readonly loadUpdater: () => Promise<UpdaterLike>;
  /** To the renderer: `app.update`. */
  readonly emit: (status: UpdateStatus) => void;
  /** Stops every server, then runs `install` (quitAndInstall) instead of a plain quit. */
  readonly restartToInstall: (install: () => void) => void;
  readonly log: Logger;
  /** Between automatic checks (default 6 h). */
  readonly intervalMs?: number;
  /** First automatic check after start (default 10 s: not competing with the app's own start). */
  readonly firstCheckDelayMs?: number;
}

type Handlers = {
  'app.updateStatus': () => Promise<UpdateStatus>;
  'app.checkForUpdates': () => Promise<UpdateStatus>;
  'app.installUpdate': () => Promise<CommandResponse<'app.installUpdate'>>;
  'app.setAutoUpdate': (request: { enabled: boolean }) => Promise<UpdateStatus>;
};

export class UpdateService implements Disposable {
  private current: Omit<UpdateStatus, 'currentVersion' | 'autoUpdate'>;
  private updater: UpdaterLike | undefined;
  private loading: Promise<UpdaterLike | undefined> | undefined;
  private firstTimer: ReturnType<typeof setTimeout> | undefined;
  private interval: ReturnType<typeof setInterval> | undefined;
  private disposed = false;

  constructor(private readonly deps: UpdateServiceDeps) {
    this.current = deps.isPackaged
      ? { state: 'idle' }
      : { state: 'unsupported', message: 'Updates are off in development builds: a packaged Harbor updates itself.' };
    trackDisposable(this);
  }

  status(): UpdateStatus {
    return { ...this.current, currentVersion: this.deps.currentVersion, autoUpdate: this.deps.settings.value.autoUpdate };
  }

  /** Starts the automatic checks if the setting allows (packaged apps only). */
  start(): void {
    if (!this.deps.isPackaged || this.disposed) return;
    if (this.deps.settings.value.autoUpdate) this.schedule();
  }

  /** A check the person asked for. */
  async check(): Promise<UpdateStatus> {
    if (!this.deps.isPackaged) return this.status();
    const updater = await this.load();
    if (!updater) return this.status();
    if (this.current.state === 'ready' || this.current.state === 'downloading') return this.status();
    try {
      await updater.checkForUpdates();
    } catch (error) {
      // Also reported through the 'error' event; this covers a throw before any event.
      this.set({ state: 'error', message: `Could not check for updates: ${error instanceof Error ? error.message : String(error)}` });
    }
    return this.status();
  }

  /** Restart into the downloaded update, now: the person chose to. */
  install(): { restarting: boolean } {
    const updater = this.updater;
    if (!updater || this.current.state !== 'ready') {
      throw new HarborError('BAD_REQUEST', 'No update is ready to install. Check for updates first; Harbor tells you when one has downloaded.');
    }
    this.deps.log.info(`updater: restarting into ${this.current.version ?? 'the new version'} after stopping every server`);
    // Silent install (the per-user installer needs no questions) and run Harbor again after it.
    this.deps.restartToInstall(() => updater.quitAndInstall(true, true));
    return { restarting: true };
  }

  async setAutoUpdate(enabled: boolean): Promise<UpdateStatus> {
    await this.deps.settings.update({ autoUpdate: enabled });
    this.stopTimers();
    if (enabled) this.start();
    this.deps.log.info(`updater: automatic checks ${enabled ? 'on' : 'off'}`);
    this.deps.emit(this.status());
    return this.status();
  }

  handlers(): Handlers {
    return {
      'app.updateStatus': async () => this.status(),
      'app.checkForUpdates': () => this.check(),
      'app.installUpdate': async () => this.install(),
      'app.setAutoUpdate': ({ enabled }) => this.setAutoUpdate(enabled),
    };
  }

  dispose(): void {
    markAsDisposed(this);
    this.disposed = true;
    this.stopTimers();
  }

  private schedule(): void {
    const run = () => {
      // Once an update waits for its restart, checking again would only download it again.
      if (this.disposed || this.current.state === 'ready' || this.current.state === 'downloading') return;
      void this.check();
    };
    this.firstTimer = setTimeout(run, this.deps.firstCheckDelayMs ?? 10_000);
    this.firstTimer.unref?.();
    this.interval = setInterval(run, this.deps.intervalMs ?? 6 * 60 * 60_000);
    this.interval.unref?.();
  }

  private stopTimers(): void {
    if (this.firstTimer) clearTimeout(this.firstTimer);
    if (this.interval) clearInterval(this.interval);
    this.firstTimer = undefined;
    this.interval = undefined;
  }

  private set(next: Omit<UpdateStatus, 'currentVersion' | 'autoUpdate'>): void {
    this.current = next;
    this.deps.emit(this.status());
  }

  private load(): Promise<UpdaterLike | undefined> {
    this.loading ??= this.deps.loadUpdater().then(
      (updater) => {
        this.wire(updater);
        this.updater = updater;
        return updater;
      },
      (error: unknown) => {
        this.deps.log.error('updater: could not load electron-updater', error);
        this.set({ state: 'error', message: 'The updater could not start; see the log (Help → Open Logs Folder).' });
        this.loading = undefined;
        return undefined;
      },
    );
    return this.loading;
  }

  private wire(updater: UpdaterLike): void {
    const log = this.deps.log;
    updater.logger = {
      info: (message?: unknown) => log.info(`updater: ${String(message)}`),
      warn: (message?: unknown) => log.warn(`updater: ${String(message)}`),
      error: (message?: unknown) => log.error(`updater: ${String(message)}`),
    };
    // Downloads start by themselves; installing waits for the person (or happens at their next quit).
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    updater.on('checking-for-update', () => this.set({ state: 'checking' }));
    updater.on('update-not-available', () => this.set({ state: 'up-to-date' }));
    updater.on('update-available', (info) => this.set({ state: 'available', version: info.version }));
    updater.on('download-progress', (progress) =>
      this.set({ state: 'downloading', percent: Math.round(progress.percent), ...(this.current.version ? { version: this.current.version } : {}) }),
    );
    updater.on('update-downloaded', (event) => this.set({ state: 'ready', version: event.version }));
    updater.on('error', (error) => this.set({ state: 'error', message: `Could not update: ${error.message}` }));
  }
}

/** What to tell a person who chose "Check for Updates…" (undefined: the app's own UI shows it). */
export function updateCheckMessage(status: UpdateStatus): string | undefined {
  const coming = status.version ? `Harbor ${status.version}` : 'A new Harbor';
  switch (status.state) {
    case 'unsupported':
    case 'error':
      return status.message;
    case 'up-to-date':
      return `Harbor ${status.currentVersion} is the latest version.`;
    case 'available':
    case 'downloading':
      return `${coming} is downloading. You choose when to restart into it.`;
    case 'ready':
      return `${coming} is ready. Restart into it from the update notice when it suits you.`;
    default:
      return undefined;
  }
}
