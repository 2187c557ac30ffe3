/**
 * Servers that outlived the Harbor that started them. Quitting stops every server (the stop
 * ladder), but a Harbor that crashes or is SIGKILLed stops nothing: a server that ignores the end
 * of its stdin keeps running, and so do the grandchildren of `npx` wrappers.
 *
 * Every process Harbor starts for a server carries HARBOR_HOST_INSTANCE=<pid>:<start time> of
 * the Harbor that started it; children inherit it, including those that leave the process group.
 * At startup the app looks for processes carrying an instance that is no longer alive (its pid
 * gone, or reused by a process with another start time) and stops them: SIGTERM, a grace, SIGKILL.
 * A process whose Harbor is alive, or whose liveness cannot be established, is never touched.
 *
 * Where: Linux reads /proc (environ and stat of the user's own processes). macOS asks `ps`, whose
 * `-E` flag prints the environment of the user's own processes (written for macOS, not run there:
 * our machines are Linux). Windows has no sweep: a process's environment is not readable there
 * without native code; there the stop ladder (taskkill /T) is the only cleanup.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { readProcEntry, readProcEntrySync } from './process-tree';

/** Processes read between two yields to the event loop while scanning /proc. */
const SCAN_CHUNK = 32;

export const INSTANCE_ENV = 'HARBOR_HOST_INSTANCE';

export interface OrphanSweepReport {
  /** False where no sweep exists (Windows). */
  readonly supported: boolean;
  /** The processes that were stopped, with the dead instance each belonged to. */
  readonly stopped: readonly { readonly pid: number; readonly instance: string }[];
}

export interface SweepOptions {
  /** This Harbor's own instance (never swept). */
  readonly self: string | undefined;
  /** How long orphans get after SIGTERM before SIGKILL (default 1 s). */
  readonly termGraceMs?: number;
  readonly platform?: NodeJS.Platform;
}

export interface Candidate {
  readonly pid: number;
  readonly instance: string;
  /** What tells this process apart from a later one with the same pid. */
  readonly startTime: string;
}

let ownInstance: string | null | undefined;

/** `<pid>:<start time>` of this process, or undefined where the start time cannot be read. */
export function hostInstanceId(): string | undefined {
  if (ownInstance === undefined) {
    const started = startTimeSync(process.pid);
    ownInstance = started === undefined ? null : `${process.pid}:${started}`;
  }
  return ownInstance ?? undefined;
}

/** Finds the processes of dead Harbor instances and stops them. Never throws. */
export async function sweepOrphans(options: SweepOptions): Promise<OrphanSweepReport> {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') return { supported: false, stopped: [] };
  let candidates: Candidate[];
  try {
    candidates = platform === 'linux' ? await linuxCandidates() : await psCandidates();
  } catch {
    return { supported: true, stopped: [] };
  }
  const liveness = new Map<string, boolean | undefined>();
  const orphans = candidates.filter((c) => {
    if (c.instance === options.self) return false;
    if (!liveness.has(c.instance)) liveness.set(c.instance, instanceAlive(c.instance));
    // Only a Harbor known to be gone leaves orphans; "cannot tell" counts as alive.
    return liveness.get(c.instance) === false;
  });
  if (orphans.length === 0) return { supported: true, stopped: [] };

  const signal = async (sig: NodeJS.Signals): Promise<Candidate[]> => {
    const reached: Candidate[] = [];
    for (const orphan of orphans) {
      // Same pid and same start time: still that process, not a newcomer with a reused pid.
      if ((await startTime(orphan.pid)) !== orphan.startTime) continue;
      try {
        process.kill(orphan.pid, sig);
        reached.push(orphan);
      } catch {
        // exited in between, or not ours
      }
    }
    return reached;
  };
  const stopped = await signal('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, options.termGraceMs ?? 1_000));
  await signal('SIGKILL');
  return { supported: true, stopped: stopped.map(({ pid, instance }) => ({ pid, instance })) };
}

/** true: that Harbor runs; false: it is gone; undefined: cannot tell (treated as alive). */
export function instanceAlive(instance: string): boolean | undefined {
  const colon = instance.indexOf(':');
  const pid = Number(instance.slice(0, colon));
  if (colon < 1 || !Number.isInteger(pid) || pid <= 0) return undefined;
  const started = startTimeSync(pid);
  if (started === undefined) return processExists(pid) ? undefined : false;
  return started === instance.slice(colon + 1);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// ---------------------------------------------------------------------------------------------
// Linux: /proc

async function linuxCandidates(): Promise<Candidate[]> {
  const names = (await readdir('/proc')).filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  const found: Candidate[] = [];
  // Every Host start sweeps, a one-shot command's included: synchronous reads of these small
  // files cost a third of the CPU of one promise each; a yield every few dozen keeps the command's
  // own work (spawning its server, reading answers) from waiting behind the scan.
  for (let start = 0; start < names.length; start += SCAN_CHUNK) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const name of names.slice(start, start + SCAN_CHUNK)) {
      let environ: string;
      try {
        environ = readFileSync(`/proc/${name}/environ`, 'latin1');
      } catch {
        continue; // not ours (EACCES) or gone
      }
      if (!environ.includes(`${INSTANCE_ENV}=`)) continue;
      const instance = envValue(environ.split('\0'), INSTANCE_ENV);
      const entry = instance === undefined ? undefined : readProcEntrySync(Number(name));
      if (entry && instance !== undefined) found.push({ pid: entry.pid, instance, startTime: entry.startTime });
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// macOS (and other POSIX systems with a BSD ps): one `ps` call lists every process with its
// start time; `-E` appends the environment of one's own processes to their command line.

async function psCandidates(): Promise<Candidate[]> {
  const output = await new Promise<string>((resolve, reject) => {
    execFile('ps', ['-E', '-ww', '-A', '-o', 'pid=,lstart=,command='], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
  return parsePsListing(output, process.pid);
}

/** `ps -o pid=,lstart=,command=` lines → the processes carrying an instance (`self` left out). */
export function parsePsListing(output: string, self: number): Candidate[] {
  const marker = new RegExp(`(?:^|\\s)${INSTANCE_ENV}=(\\d+:\\S+)`);
  const found: Candidate[] = [];
  for (const line of output.split('\n')) {
    // lstart is a fixed-format date, e.g. "Mon Nov 30 02:18:05 2026".
    const match = /^\s*(\d+)\s+(\w{3}\s+\w{3}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\d{4})\s+(.*)$/.exec(line);
    if (!match) continue;
    const pid = Number(match[1]);
    const instance = marker.exec(match[3]!)?.[1];
    if (instance === undefined || pid === self) continue;
    found.push({ pid, instance, startTime: lstartId(match[2]!) });
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Start times

/** "Mon Nov 30 02:18:05 2026" → "Mon_Nov_30_02:18:05_2026": no spaces in an instance id. */
function lstartId(lstart: string): string {
  return lstart.trim().replace(/\s+/g, '_');
}

/** Linux: clock ticks since boot (field 22 of /proc/<pid>/stat); elsewhere: `ps -o lstart=`. */
function startTimeSync(pid: number): string | undefined {
  if (process.platform === 'linux') return readProcEntrySync(pid)?.startTime;
  if (process.platform === 'win32') return undefined;
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 });
    return out.trim() ? lstartId(out) : undefined;
  } catch {
    return undefined; // ps exits 1 when there is no such process
  }
}

async function startTime(pid: number): Promise<string | undefined> {
  return process.platform === 'linux' ? (await readProcEntry(pid))?.startTime : startTimeSync(pid);
}

function envValue(entries: readonly string[], name: string): string | undefined {
  const prefix = `${name}=`;
  const entry = entries.find((e) => e.startsWith(prefix));
  return entry === undefined ? undefined : entry.slice(prefix.length);
}
