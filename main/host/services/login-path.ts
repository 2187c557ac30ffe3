import { join } from 'node:path';
import type { Disposable } from '../lifecycle';
import { LoginShellPath } from '../servers/stdio/environment';
import { LoginPathStore, loginPathKey } from '../servers/stdio/login-path-store';

export interface LoginPathCacheOptions {
  /** False: stdio servers get the process's own PATH (Windows, tests, benchmarks). */
  readonly enabled: boolean;
  /** Where the answer is remembered between runs (login-path.json in the data folder); none: asked every run. */
  readonly file?: string;
  /** Ask the shell even when a remembered answer holds (`--fresh-env`). */
  readonly fresh?: boolean;
  /** A remembered answer is used at once and the shell asked again behind it (the app, browser mode); else it is trusted. */
  readonly refreshInBackground?: boolean;
}

/**
 * The login shell's PATH for stdio servers (an app started from a desktop lacks the shell's own):
 * remembered between runs (login-path-store.ts) and resolved once, so only a launch that looks a
 * program up on PATH waits for it. The app warms it up at start, answering from what it remembers
 * while the shell is asked again in the background; a CLI command asks only at its first launch
 * that needs it (a bare `npx`, not `/usr/bin/node`), and trusts what it remembers unless
 * `--fresh-env`, or a changed rc file, says otherwise.
 */
export class LoginPathCache implements Disposable {
  private value: string | undefined;
  private ready: Promise<void> | undefined;
  private remembered: { key: string; path: string | undefined } | undefined;
  private readonly store: LoginPathStore | undefined;

  constructor(
    private readonly options: LoginPathCacheOptions,
    private readonly path = new LoginShellPath(),
  ) {
    this.store = options.file ? new LoginPathStore(options.file) : undefined;
  }

  /** Kills a login shell still being asked (Harbor stopping); the PATH stays as far as it is known. */
  dispose(): Promise<void> {
    return this.path.dispose();
  }

  /** Starts resolving now, unless it has started; a failure leaves the PATH as the process has it. */
  warmUp(): void {
    if (!this.options.enabled || this.ready) return;
    const { key, path } = this.recall();
    if (path !== undefined) {
      this.value = path;
      this.ready = Promise.resolve();
      if (this.options.refreshInBackground) void this.ask(key);
      return;
    }
    this.ready = this.ask(key);
  }

  /** Resolves once the PATH is known (or given up on), starting the lookup if nothing did yet. */
  whenReady(): Promise<void> {
    this.warmUp();
    return this.ready ?? Promise.resolve();
  }

  /** The PATH as known now: resolved, or remembered from an earlier run (never waits, never starts the shell). */
  get current(): string | undefined {
    if (this.value === undefined && this.options.enabled && !this.ready) return this.recall().path;
    return this.value;
  }

  private recall(): { key: string; path: string | undefined } {
    if (!this.remembered) {
      const { shell, startPath } = this.path.asked;
      const key = this.store ? loginPathKey(shell, startPath) : '';
      this.remembered = { key, path: this.store && !this.options.fresh ? this.store.read(key) : undefined };
    }
    return this.remembered;
  }

  private ask(key: string): Promise<void> {
    return this.path.resolve().then(
      async (value) => {
        if (value === undefined) return;
        this.value = value;
        // Not remembering it costs the next run one shell start, nothing more.
        await this.store?.write(key, value).catch(() => undefined);
      },
      () => undefined,
    );
  }
}

/** The Host's: remembered in the data folder, refreshed behind the app's and browser mode's start. */
export function hostLoginPath(options: { useLoginShellPath?: boolean; freshEnv?: boolean; dataDir: string; mode: string }): LoginPathCache {
  return new LoginPathCache({
    enabled: options.useLoginShellPath ?? process.platform !== 'win32',
    file: join(options.dataDir, 'login-path.json'),
    fresh: options.freshEnv === true,
    refreshInBackground: options.mode !== 'cli',
  });
}
