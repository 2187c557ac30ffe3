/**
 * The servers die with Harbor, however Harbor dies. The stop ladder (process.ts) runs only when
 * Harbor stops them; a Harbor that is SIGKILLed (the OOM killer, a closed terminal, a crash)
 * stops nothing, and a server that ignores the end of its stdin lives on with its children.
 *
 * POSIX (Linux, macOS): one small reaper process per Host, started on the first server spawn. It
 * reads lines from a pipe only this Harbor holds — `+PGID` when a server's process group starts,
 * `-PGID` once it is gone — and when the pipe reaches EOF (Harbor exited, however), it sends
 * SIGTERM to every group still recorded, waits up to 2 s for them to go, and SIGKILLs what is
 * left. Linux's parent-death signal is out of Node's reach, and pipe EOF is portable; the reaper
 * is `/bin/sh` (a few hundred KB, no Node), in a session of its own, so a terminal's SIGINT or
 * SIGHUP reaches Harbor and not the reaper. A reaper that died meanwhile is started again at the
 * next spawn and told every group still running. A descendant that left its server's group
 * (setsid) escapes the reaper; the orphan sweep of the next Harbor start finds it (orphans.ts).
 *
 * Windows: the reaper holds a Job object with kill-on-close instead; it records process ids
 * (reaper-command.ts says how, and what it does not cover).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { markAsDisposed, toDisposable, trackDisposable, type Disposable } from '../../lifecycle';
import { reaperCommand, type ReaperCommand } from './reaper-command';

/** How long dispose waits for the reaper to exit (it exits at once when nothing is recorded). */
const EXIT_WAIT_MS = 5_000;

export interface ReaperOptions {
  readonly platform?: NodeJS.Platform;
  /** The shell that runs the reaper (default /bin/sh). */
  readonly shell?: string;
}

/** One Host's reaper: `watch` each server's process group while it runs; dispose after the servers stopped. */
export class ProcessReaper implements Disposable {
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private readonly groups = new Set<number>();
  private disposed = false;
  private readonly command: ReaperCommand;

  constructor(options: ReaperOptions = {}) {
    trackDisposable(this);
    this.command = reaperCommand(options.platform ?? process.platform, options.shell);
  }

  /** The reaper's pid while it runs (tests, diagnostics). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Records the process group `pgid` (a server spawned `detached` leads its own) until the returned
   * Disposable is disposed — once the group is gone (the sweep after its leader exited).
   */
  watch(pgid: number): Disposable {
    if (this.disposed || !Number.isInteger(pgid) || pgid <= 1) return toDisposable(() => undefined);
    this.groups.add(pgid);
    this.send(`+${pgid}`);
    return toDisposable(() => {
      if (!this.groups.delete(pgid)) return;
      this.send(`-${pgid}`);
    });
  }

  /** Ends the pipe: the reaper stops any group still recorded (none, after a clean stop) and exits. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    const child = this.child;
    if (!child) return;
    child.stdin?.end();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private send(line: string): void {
    // A reaper started now was told every recorded group already.
    const fresh = this.child === undefined;
    const stdin = this.running()?.stdin;
    // A reaper that cannot start, or died, is started again with every group at the next spawn;
    // meanwhile the orphan sweep of the next Harbor start is the cleanup.
    if (fresh || !stdin || stdin.destroyed || !stdin.writable) return;
    stdin.write(`${line}\n`);
  }

  /** The reaper, started on first use, and again (told every recorded group) if it died. */
  private running(): ChildProcess | undefined {
    if (this.child) return this.child;
    if (this.disposed) return undefined;
    let child: ChildProcess;
    try {
      const { command, args, detached } = this.command;
      child = spawn(command, [...args], {
        stdio: ['pipe', 'ignore', 'ignore'],
        detached,
        windowsHide: true,
        // POSIX: the builtins and sleep; Windows: what PowerShell needs to start (SystemRoot, PATH, …).
        env: process.platform === 'win32' ? process.env : { PATH: '/usr/bin:/bin' },
      });
    } catch {
      // No shell to run it (a synchronous spawn failure): the next start's sweep is the cleanup.
      return undefined;
    }
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
    });
    // ENOENT and the like: reported as 'error' then 'exit'-less; forget it so the next spawn retries.
    child.once('error', () => {
      if (this.child === child) this.child = undefined;
    });
    // EPIPE after the reaper died: the exit listener above already forgot it.
    child.stdin?.on('error', () => undefined);
    // Neither the reaper nor the pipe keeps a one-shot CLI command's event loop alive.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    for (const pgid of this.groups) child.stdin?.write(`+${pgid}\n`);
    return child;
  }
}
