/**
 * One supervised stdio server process — and everything it starts.
 *
 * The SDK's StdioClientTransport signals only its direct child, so `npx`/`uvx`/`sh -c` wrappers
 * leave the real server (and its children) running. Harbor owns the whole tree instead:
 * - POSIX: spawned `detached`, so the server leads its own process group; signals go to the
 *   group (`kill(-pid)`), and after the leader exits the group is ALWAYS swept with SIGKILL
 *   (a wrapper that dies on SIGTERM otherwise orphans the server it started). On Linux a /proc
 *   snapshot of descendants, taken before stopping, also catches children that left the group.
 * - Windows: `taskkill /T /F /PID` while the root is still alive (no process groups there).
 * We wait on 'exit', never on 'close': a grandchild holding stdout keeps 'close' from firing.
 *
 * stderr is never inherited (it would land on the host's stdout/terminal, or nowhere in a GUI):
 * it is captured line by line into a bounded ring that error messages and the UI show.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { HarborError } from '../../errors';
import { markAsDisposed, toDisposable, trackDisposable, type Disposable } from '../../lifecycle';
import { LineRing } from '../ring-buffer';
import { buildServerEnv, resolveCommand } from './environment';
import { signalEntries, signalGroup, snapshotDescendants, type ProcEntry } from './process-tree';
import type { ProcessReaper } from './reaper';
import { spawnFailure } from './spawn-error';

/** Every process Harbor starts for a server carries this variable (value: the caller's marker). */
export const MARKER_ENV = 'HARBOR_SERVER_MARKER';

export interface StdioSpawnOptions {
  command: string;
  args?: readonly string[];
  /** The complete environment (see buildServerEnv); default: the allowlisted host environment. */
  env?: NodeJS.ProcessEnv | Record<string, string>;
  cwd?: string;
  /** Added to the environment as HARBOR_SERVER_MARKER, to find every process of this server later. */
  marker?: string;
  /** Lines of stderr kept (default 500). */
  stderrLines?: number;
  /** Kills the server's process group if Harbor dies without stopping it (reaper.ts). */
  reaper?: Pick<ProcessReaper, 'watch'>;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StopGraces {
  /** How long a server gets to exit by itself after its stdin is closed. */
  stdinGraceMs?: number;
  /** How long it gets after SIGTERM before SIGKILL. */
  termGraceMs?: number;
}

/** After SIGKILL a process dies unless stuck in the kernel; do not wait forever for that. */
const KILL_WAIT_MS = 5000;
/** After the sweep, stdout/stderr reach EOF at once unless an escaped process still holds them. */
const CLOSE_WAIT_MS = 500;

export class StdioProcess implements Disposable {
  readonly stderr: LineRing;
  /** Resolves when the process exits (or failed to start: code and signal null). Never rejects. */
  readonly exited: Promise<ExitInfo>;
  /** Resolves once the OS started the process; rejects with a SPAWN_FAILED HarborError. */
  readonly spawned: Promise<void>;

  private readonly exitListeners = new Set<(info: ExitInfo) => void>();
  private readonly stderrListeners = new Set<(line: string) => void>();
  private readonly closed: Promise<void>;
  private exitState: ExitInfo | undefined;
  private spawnFailed: HarborError | undefined;
  private stopping: Promise<void> | undefined;
  /** The reaper's record of this process group, from the spawn until the group is swept. */
  private reaped: Disposable | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly context: { command: string; cwd: string | undefined; env: Record<string, string> },
    stderrLines: number,
    reaper: Pick<ProcessReaper, 'watch'> | undefined,
  ) {
    trackDisposable(this);
    this.stderr = new LineRing(stderrLines);
    let resolveExit!: (info: ExitInfo) => void;
    this.exited = new Promise((resolve) => (resolveExit = resolve));
    this.closed = new Promise((resolve) => child.once('close', () => resolve()));

    this.spawned = new Promise<void>((resolve, reject) => {
      let started = false;
      child.once('spawn', () => {
        started = true;
        if (reaper && child.pid !== undefined && !this.exitState) this.reaped = reaper.watch(child.pid);
        resolve();
      });
      child.on('error', (error) => {
        // After 'spawn', errors (e.g. a failed kill) are not fatal: the exit path tells the story.
        if (started || this.spawnFailed) return;
        this.spawnFailed = spawnFailure(error, { ...context, platform: process.platform });
        reject(this.spawnFailed);
        this.recordExit({ code: null, signal: null }, resolveExit);
      });
    });
    // Callers that never await `spawned` must not get an unhandled rejection; they see spawnError.
    this.spawned.catch(() => undefined);

    child.once('exit', (code, signal) => this.recordExit({ code, signal }, resolveExit));
    // A write to a process that just died raises EPIPE on stdin; the exit path reports it.
    child.stdin?.on('error', () => undefined);

    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      for (const line of this.stderr.push(chunk)) {
        for (const listener of [...this.stderrListeners]) safeCall(() => listener(line));
      }
    });
  }

  /**
   * Starts a server. Returns at once; await `spawned` to learn whether the OS could start it.
   * Throws a SPAWN_FAILED HarborError only for failures Node reports synchronously.
   */
  static spawn(options: StdioSpawnOptions): StdioProcess {
    const platform = process.platform;
    const env: Record<string, string> = options.env
      ? definedOnly(options.env)
      : buildServerEnv({ base: process.env, serverEnv: undefined, platform });
    if (options.marker !== undefined) env[MARKER_ENV] = options.marker;
    const resolved = resolveCommand(options.command, options.args ?? [], env, platform);
    const context = { command: options.command, cwd: options.cwd, env };
    let child: ChildProcess;
    try {
      child = spawn(resolved.file, resolved.args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // POSIX: a process group of its own, so the whole tree can be signalled and swept.
        detached: platform !== 'win32',
        windowsHide: true,
        windowsVerbatimArguments: resolved.windowsVerbatimArguments ?? false,
        cwd: options.cwd,
        env,
      });
    } catch (error) {
      throw spawnFailure(error, { ...context, platform });
    }
    return new StdioProcess(child, context, options.stderrLines ?? 500, options.reaper);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdin(): Writable {
    return this.child.stdin!;
  }

  get stdout(): Readable {
    return this.child.stdout!;
  }

  /** Why the process could not start (ENOENT, EACCES, …), once known. */
  get spawnError(): HarborError | undefined {
    return this.spawnFailed;
  }

  /** Exit code/signal once the process has exited. */
  get exitInfo(): ExitInfo | undefined {
    return this.exitState;
  }

  /** Called once when the process exits (after its group was swept). Late listeners are called at once. */
  onExit(listener: (info: ExitInfo) => void): Disposable {
    if (this.exitState) {
      const info = this.exitState;
      queueMicrotask(() => listener(info));
      return toDisposable(() => undefined);
    }
    this.exitListeners.add(listener);
    return toDisposable(() => {
      this.exitListeners.delete(listener);
    });
  }

  /** Called for each complete stderr line. */
  onStderrLine(listener: (line: string) => void): Disposable {
    this.stderrListeners.add(listener);
    return toDisposable(() => {
      this.stderrListeners.delete(listener);
    });
  }

  /**
   * The stop ladder: close stdin → wait → SIGTERM the group → wait → SIGKILL the group; then,
   * however the process ended, sweep the group and the snapshot. Idempotent; concurrent calls
   * share one run.
   */
  stop(graces: StopGraces = {}): Promise<void> {
    if (!this.stopping) markAsDisposed(this);
    this.stopping ??= this.runStopLadder(graces);
    return this.stopping;
  }

  dispose(): Promise<void> {
    return this.stop();
  }

  private async runStopLadder({ stdinGraceMs = 2000, termGraceMs = 2000 }: StopGraces): Promise<void> {
    await this.spawned.catch(() => undefined); // a failed spawn was reported by start(); there is then nothing to stop
    const pid = this.child.pid;
    if (pid === undefined || this.spawnFailed) return;
    const windows = process.platform === 'win32';
    let snapshot: ProcEntry[] = [];

    if (!this.exitState) {
      // The snapshot is taken while the grace period already runs: closing stdin must not wait
      // for a scan of /proc (ten servers stopping together would each pay for one).
      const scanning = snapshotDescendants(pid);
      try {
        this.child.stdin?.end();
      } catch {
        // already closed
      }
      const [exited, first] = await Promise.all([this.waitForExit(stdinGraceMs), scanning]);
      snapshot = first;
      if (!exited) {
        snapshot = mergeSnapshots(snapshot, await snapshotDescendants(pid));
        if (windows) {
          await taskkillTree(pid);
        } else {
          signalGroup(pid, 'SIGTERM');
          await signalEntries(snapshot, 'SIGTERM', pid);
        }
        if (!(await this.waitForExit(termGraceMs))) {
          if (windows) {
            this.child.kill('SIGKILL');
          } else {
            signalGroup(pid, 'SIGKILL');
            await signalEntries(snapshot, 'SIGKILL', pid);
          }
          await this.waitForExit(KILL_WAIT_MS);
        }
      }
    }

    // The sweep, always: the leader is gone, but a wrapper's children may not be.
    if (!windows) signalGroup(pid, 'SIGKILL');
    await signalEntries(snapshot, 'SIGKILL');
    // A timer left running would keep a one-shot command alive until it fires: cleared at once.
    let closeTimer: NodeJS.Timeout | undefined;
    await Promise.race([this.closed, new Promise((resolve) => (closeTimer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(closeTimer);
    this.child.stdin?.destroy();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }

  private async waitForExit(ms: number): Promise<boolean> {
    if (this.exitState) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const result = await Promise.race([this.exited.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return result;
  }

  private recordExit(info: ExitInfo, resolveExit: (info: ExitInfo) => void): void {
    if (this.exitState) return;
    this.exitState = info;
    // Sweep at once on any exit, expected or not: a crashed `npx`/`sh -c` wrapper must not
    // leave the server it started running.
    const pid = this.child.pid;
    if (pid !== undefined && !this.spawnFailed && process.platform !== 'win32') signalGroup(pid, 'SIGKILL');
    // The group is gone (SIGKILL cannot be ignored): the reaper must not signal its id again.
    void this.reaped?.dispose();
    this.reaped = undefined;
    resolveExit(info);
    for (const listener of [...this.exitListeners]) safeCall(() => listener(info));
    this.exitListeners.clear();
  }
}

function definedOnly(env: NodeJS.ProcessEnv | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function mergeSnapshots(a: ProcEntry[], b: ProcEntry[]): ProcEntry[] {
  const seen = new Set(a.map((entry) => `${entry.pid}:${entry.startTime}`));
  return [...a, ...b.filter((entry) => !seen.has(`${entry.pid}:${entry.startTime}`))];
}

function safeCall(fn: () => void): void {
  try {
    fn();
  } catch {
    // a listener's failure is its own; the supervisor carries on
  }
}

/** Windows: end the whole tree while its root still exists (taskkill walks parent links). */
function taskkillTree(pid: number): Promise<void> {
  return new Promise((resolve) => {
    execFile('taskkill', ['/T', '/F', '/PID', String(pid)], { windowsHide: true }, () => resolve());
  });
}
