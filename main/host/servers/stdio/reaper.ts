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
 * Windows: no reaper. libuv puts every child spawned without `detached` into a job object with
 * JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, so the server process itself dies with Harbor; that job
 * allows silent breakaway, so the server's own children (npx's node) do not. A job of Harbor's
 * own without breakaway needs native code (CreateJobObject, AssignProcessToJobObject) that Harbor
 * does not ship; until it does, `watch` is a no-op there and taskkill /T (the stop ladder) is the
 * cleanup when Harbor stops normally.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { markAsDisposed, toDisposable, trackDisposable, type Disposable } from '../../lifecycle';

/** How long the recorded groups get after SIGTERM before SIGKILL, in 0.2 s steps (2 s). */
const TERM_STEPS = 10;
/** How long dispose waits for the reaper to exit (it exits at once when nothing is recorded). */
const EXIT_WAIT_MS = 5_000;

/**
 * The reaper itself, POSIX sh: records groups from stdin; on EOF, TERM, a grace, KILL. `kill` and
 * `read` are builtins; only `sleep` is a program (fractions work with GNU and BSD sleep).
 */
export const REAPER_SCRIPT = `trap '' HUP INT
groups=' '
while IFS= read -r line; do
  g=\${line#?}
  case $g in ''|*[!0-9]*) continue ;; esac
  case $line in
    +*) groups="$groups$g " ;;
    -*) case $groups in *" $g "*) groups="\${groups%% $g *} \${groups#* $g }" ;; esac ;;
  esac
done
[ -z "\${groups# }" ] && exit 0
for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null; done
i=0
while [ $i -lt ${TERM_STEPS} ]; do
  alive=''
  for g in $groups; do kill -s 0 -- "-$g" 2>/dev/null && alive="$alive $g"; done
  [ -z "$alive" ] && exit 0
  groups=$alive
  sleep 0.2
  i=$((i + 1))
done
for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
exit 0
`;

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
  private readonly enabled: boolean;
  private readonly shell: string;

  constructor(options: ReaperOptions = {}) {
    trackDisposable(this);
    this.enabled = (options.platform ?? process.platform) !== 'win32';
    this.shell = options.shell ?? '/bin/sh';
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
    if (!this.enabled || this.disposed || !Number.isInteger(pgid) || pgid <= 1) return toDisposable(() => undefined);
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
      child = spawn(this.shell, ['-c', REAPER_SCRIPT], {
        stdio: ['pipe', 'ignore', 'ignore'],
        // A session of its own: a terminal's SIGINT/SIGHUP to Harbor's group must not reach it.
        detached: true,
        env: { PATH: '/usr/bin:/bin' },
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
