/**
 * Finding and signalling everything a server started. The process group (spawned `detached`, so
 * the server leads its own group) catches `npx`/`sh -c` wrappers and their children even after
 * the leader died. A child that called setsid() (or was spawned `detached` itself) leaves the
 * group, so on Linux we also take a snapshot of the leader's descendants from /proc before
 * stopping it — while the parent links still exist — and signal those too. Each snapshot entry
 * remembers its start time, so a pid the kernel has since reused for someone else is left alone.
 * The snapshot walks the server's own subtree (/proc/<pid>/task/<tid>/children) and reads the stat
 * of those processes alone: the whole table (hundreds of files on a desktop) is read only where the
 * kernel has no children files (#32: the scan was most of a one-shot command's exit tail).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/<pid>/stat): identity beyond the pid. */
  startTime: string;
  state: string;
}

/** Parses /proc/<pid>/stat. The command name may hold spaces and parentheses: split after the last ')'. */
export function parseProcStat(text: string): ProcEntry | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const fields = text.slice(close + 2).trim().split(/\s+/);
  const [state, ppid, pgid] = fields;
  const startTime = fields[19];
  if (!Number.isInteger(pid) || state === undefined || ppid === undefined || pgid === undefined || startTime === undefined) {
    return undefined;
  }
  return { pid, ppid: Number(ppid), pgid: Number(pgid), startTime, state };
}

/** A living process as /proc shows it now; undefined when it is gone or a zombie. */
export async function readProcEntry(pid: number): Promise<ProcEntry | undefined> {
  return living(await readProcStat(pid));
}

/** readProcEntry, synchronously (start-up code that has nothing to await). */
export function readProcEntrySync(pid: number): ProcEntry | undefined {
  try {
    return living(parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8')));
  } catch {
    return undefined;
  }
}

function living(entry: ProcEntry | undefined): ProcEntry | undefined {
  return entry && entry.state !== 'Z' ? entry : undefined;
}

/** Every process visible in /proc (Linux); empty where /proc does not exist. */
let scanInFlight: Promise<ProcEntry[]> | undefined;

/**
 * One scan of /proc, shared by every caller while it runs: servers stopping together (Harbor
 * quitting) read the table once, not once each.
 */
export function readProcTable(): Promise<ProcEntry[]> {
  scanInFlight ??= scanProcTable().finally(() => {
    scanInFlight = undefined;
  });
  return scanInFlight;
}

async function scanProcTable(): Promise<ProcEntry[]> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return []; // no /proc (not Linux): no process to find
  }
  const entries = await Promise.all(names.filter((name) => /^\d+$/.test(name)).map((name) => readProcStat(Number(name))));
  return entries.filter((entry): entry is ProcEntry => entry !== undefined);
}

/** The living descendants of `rootPid` (children, grandchildren, …), not the root itself. */
export async function snapshotDescendants(rootPid: number): Promise<ProcEntry[]> {
  if (process.platform !== 'linux') return [];
  return (hasChildrenFiles() ? await walkChildren(rootPid) : await walkTable(rootPid)).filter((entry) => entry.state !== 'Z');
}

let childrenFiles: boolean | undefined;

/** Whether the kernel lists a thread's children (CONFIG_PROC_CHILDREN, on in the usual kernels). */
function hasChildrenFiles(): boolean {
  childrenFiles ??= existsSync('/proc/thread-self/children');
  return childrenFiles;
}

/** Breadth first through the children files: the subtree's own stat files, nobody else's. */
async function walkChildren(rootPid: number): Promise<ProcEntry[]> {
  const found: ProcEntry[] = [];
  const seen = new Set<number>([rootPid]);
  let level = [rootPid];
  while (level.length > 0) {
    const children = (await Promise.all(level.map(childPids))).flat().filter((pid) => !seen.has(pid));
    for (const pid of children) seen.add(pid);
    const entries = await Promise.all(children.map(readProcStat));
    level = [];
    for (const entry of entries) {
      if (!entry) continue;
      found.push(entry);
      level.push(entry.pid);
    }
  }
  return found;
}

/** The pids every thread of `pid` started; none when it is gone. */
async function childPids(pid: number): Promise<number[]> {
  let tasks: string[];
  try {
    tasks = await readdir(`/proc/${pid}/task`);
  } catch {
    return []; // the process is gone: it has no children to find
  }
  const lists = await Promise.all(
    tasks.map(async (tid) => {
      try {
        return await readFile(`/proc/${pid}/task/${tid}/children`, 'utf8');
      } catch {
        return ''; // the thread (or the process) ended while we looked
      }
    }),
  );
  return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
}

/** /proc/<pid>/stat, zombies included (the walks filter them at the end; readProcEntry at once). */
async function readProcStat(pid: number): Promise<ProcEntry | undefined> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // exited while we looked
  }
}

/** The same walk over the whole process table (kernels without children files). */
async function walkTable(rootPid: number): Promise<ProcEntry[]> {
  const table = await readProcTable();
  const children = new Map<number, ProcEntry[]>();
  for (const entry of table) {
    const list = children.get(entry.ppid);
    if (list) list.push(entry);
    else children.set(entry.ppid, [entry]);
  }
  const found: ProcEntry[] = [];
  const queue = [rootPid];
  const seen = new Set<number>([rootPid]);
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Signals the whole process group led by `pgid`. False when the group is already empty. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: nobody left (or EPERM: not ours any more)
  }
}

/**
 * Signals snapshot entries that are outside `exceptGroup` (the group signal already reached the
 * others) and are still the same process (same start time).
 */
export async function signalEntries(entries: readonly ProcEntry[], signal: NodeJS.Signals, exceptGroup?: number): Promise<void> {
  for (const entry of entries) {
    const current = await readProcEntry(entry.pid);
    if (current === undefined || current.startTime !== entry.startTime) continue;
    if (exceptGroup !== undefined && current.pgid === exceptGroup) continue;
    try {
      process.kill(entry.pid, signal);
    } catch {
      // exited in between
    }
  }
}
