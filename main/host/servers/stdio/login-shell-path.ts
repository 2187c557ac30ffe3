/**
 * The PATH a person has in their terminal. An app started from the Dock, a .desktop file or
 * Explorer gets the session's bare PATH (/usr/bin:/bin:…) without what ~/.zshrc, nvm, Homebrew or
 * pyenv add, so `npx`/`uvx` are "not found" although they work in a terminal. On macOS/Linux we ask
 * the login shell once (`$SHELL -ilc …`) and reuse the answer for every server.
 *
 * The shell runs user code (rc files), so it is contained: no stdin, its own process group
 * (killed as a whole on timeout and swept after it exits), a hard timeout, and the answer is
 * found between two random markers so banners, `fortune` and motd noise are ignored.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Disposable } from '../../lifecycle';
import { withoutHarborToolFolders } from './server-path';

export interface LoginShellPathOptions {
  platform?: NodeJS.Platform;
  /** Environment the shell starts with (default `process.env` without Harbor's tool folders on PATH); its SHELL picks the shell. */
  env?: NodeJS.ProcessEnv;
  /** Overrides `$SHELL`. */
  shell?: string;
  /** Give up after this long (a slow or interactive rc file must not delay every server). */
  timeoutMs?: number;
}

/** Set while the shell runs, so an rc file can skip slow work: `[ -n "$HARBOR_RESOLVING_ENVIRONMENT" ] && return`. */
const RESOLVING_ENV_FLAG = 'HARBOR_RESOLVING_ENVIRONMENT';

const MAX_OUTPUT_BYTES = 1024 * 1024;

export class LoginShellPath implements Disposable {
  private readonly platform: NodeJS.Platform;
  private readonly env: NodeJS.ProcessEnv;
  private readonly shell: string | undefined;
  private readonly timeoutMs: number;
  private pending: Promise<string | undefined> | undefined;
  private failureReason: string | undefined;
  /** Ends the shell being asked now, if one is (dispose). */
  private stop: (() => void) | undefined;
  private disposed = false;

  constructor(options: LoginShellPathOptions = {}) {
    this.platform = options.platform ?? process.platform;
    // Without Harbor's own tool folders: rc files that append to the inherited PATH would hand them back.
    this.env = options.env ?? withoutHarborToolFolders(process.env, this.platform);
    this.shell = options.shell;
    this.timeoutMs = options.timeoutMs ?? 3000;
  }

  /** The login shell's PATH, or undefined (Windows, no shell, timeout, failure). Runs the shell once. */
  resolve(): Promise<string | undefined> {
    this.pending ??= this.platform === 'win32' || this.disposed ? Promise.resolve(undefined) : this.run();
    return this.pending;
  }

  /** The shell asked, and the PATH it starts with: what a remembered answer is keyed by (login-path-store.ts). */
  get asked(): { readonly shell: string; readonly startPath: string | undefined } {
    return { shell: this.shellCommand(), startPath: this.env.PATH };
  }

  /**
   * Stops asking: a shell still running is killed with its process group (its rc files' children
   * too), and resolve() answers undefined, now and from then on.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.stop?.();
    await this.pending;
  }

  /** Why the last resolve() gave undefined (for a log line), if it did. */
  get failure(): string | undefined {
    return this.failureReason;
  }

  private shellCommand(): string {
    return this.shell ?? this.env.SHELL ?? (this.platform === 'darwin' ? '/bin/zsh' : '/bin/sh');
  }

  private run(): Promise<string | undefined> {
    const shell = this.shellCommand();
    const start = `__HARBOR_PATH_${randomBytes(6).toString('hex')}_START__`;
    const end = `__HARBOR_PATH_${randomBytes(6).toString('hex')}_END__`;
    const script = `printf '%s%s%s' '${start}' "$PATH" '${end}'`;

    return new Promise((resolve) => {
      let settled = false;
      let output = '';
      const finish = (path: string | undefined, reason?: string): void => {
        if (settled) return;
        settled = true;
        this.stop = undefined;
        clearTimeout(timer);
        this.failureReason = path === undefined ? reason : undefined;
        // Whatever the rc files left running in the shell's group goes with it.
        killGroup(child.pid);
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve(path);
      };

      const child = spawn(shell, ['-ilc', script], {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: { ...this.env, [RESOLVING_ENV_FLAG]: '1' },
        windowsHide: true,
      });
      const timer = setTimeout(() => finish(undefined, `${shell} did not answer within ${this.timeoutMs} ms`), this.timeoutMs);
      this.stop = () => finish(undefined, 'Harbor is stopping');
      child.on('error', (error) => finish(undefined, `could not run ${shell}: ${error.message}`));
      child.stderr?.resume();
      child.stdout?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => {
        if (output.length < MAX_OUTPUT_BYTES) output += chunk;
        const path = between(output, start, end);
        if (path !== undefined) finish(path.trim() === '' ? undefined : path, 'the login shell printed an empty PATH');
      });
      child.on('exit', (code, signal) => {
        // Output may still be in flight after 'exit'; give it a moment before giving up.
        setTimeout(() => finish(undefined, `${shell} exited (${signal ?? `code ${code}`}) without printing PATH`), 100).unref();
      });
    });
  }
}

function between(text: string, start: string, end: string): string | undefined {
  const from = text.indexOf(start);
  if (from < 0) return undefined;
  const to = text.indexOf(end, from + start.length);
  if (to < 0) return undefined;
  return text.slice(from + start.length, to);
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already empty.
  }
}
