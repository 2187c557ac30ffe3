import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { HarborError } from './errors';
import { processAlive } from './process-alive';

/** Who holds a lock: the pid, when that process started (so a reused pid is not mistaken for it), and a nonce of this hold. */
export interface LockOwner {
  readonly pid: number;
  /** The process's start time as the OS counts it (Linux: clock ticks since boot); '' where Harbor cannot read it. */
  readonly start: string;
  readonly nonce?: string;
}

/** How long a writer waits for one hold of another Harbor's edit before it gives up (an edit holds the lock for milliseconds). */
export const LOCK_WAIT_MS = 5_000;

/**
 * An exclusive lock beside a file (`harbor.json.lock`), for read-change-write edits from several
 * processes. The lock file is created with O_EXCL and holds its owner's pid and start time; a lock
 * whose owner is gone (the pid is not running, or now belongs to a process started at another
 * time) is stale and broken. One live hold is waited for up to `waitMs`, then the edit fails with
 * "another Harbor is changing …; try again" — never a silent loss.
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>, waitMs = LOCK_WAIT_MS): Promise<T> {
  const path = `${file}.lock`;
  const me = { ...(await lockOwner()), nonce: randomBytes(8).toString('hex') };
  await acquire(path, file, me, waitMs);
  try {
    return await work();
  } finally {
    await release(path, me);
  }
}

/** This process as a lock owner (the tests hold locks as a live Harbor would). */
export async function lockOwner(pid = process.pid): Promise<LockOwner> {
  return { pid, start: (await startTimeOf(pid)) ?? '' };
}

async function acquire(path: string, file: string, me: LockOwner, waitMs: number): Promise<void> {
  let deadline = Date.now() + waitMs;
  let seen = '';
  let delay = 5;
  for (;;) {
    if (await tryCreate(path, me)) return;
    const holder = await readOwner(path);
    if (holder === 'gone') continue;
    // The wait is for one hold: a queue of writers that moves on (ten imports at once) is not a stuck Harbor.
    const key = holder === 'unreadable' ? holder : `${holder.pid}:${holder.nonce ?? ''}`;
    if (key !== seen) {
      seen = key;
      deadline = Date.now() + waitMs;
    }
    if (holder !== 'unreadable' && (await isStale(holder))) await breakLock(path, holder);
    else if (Date.now() > deadline) {
      const who = holder === 'unreadable' ? `${path} is held` : `${path} is held by process ${holder.pid}`;
      throw new HarborError('CONFIG_IO', `another Harbor is changing ${basename(file)}; try again (${who}; if no Harbor is running, delete that file).`);
    } else {
      // Backs off with jitter, so a crowd of writers does not wake in step.
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 100);
    }
  }
}

/** O_EXCL create: true when this process now holds the lock. The content is written before anyone can read a half of it (a temp file, linked). */
async function tryCreate(path: string, me: LockOwner): Promise<boolean> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(JSON.stringify(me), 'utf8');
  } finally {
    await handle.close();
  }
  try {
    await link(tmp, path); // fails with EEXIST when another holds it: the no-replace create
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw lockError(path, error);
  } finally {
    await rm(tmp, { force: true });
  }
}

async function readOwner(path: string): Promise<LockOwner | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw lockError(path, error);
  }
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && Number.isInteger(owner.pid) && owner.pid > 0) {
      return { pid: owner.pid, start: typeof owner.start === 'string' ? owner.start : '', ...(typeof owner.nonce === 'string' ? { nonce: owner.nonce } : {}) };
    }
  } catch {
    // Not JSON: not a lock this Harbor wrote (locks are linked whole, never half-written); waited for, then reported.
  }
  return 'unreadable';
}

async function isStale(holder: LockOwner): Promise<boolean> {
  if (!processAlive(holder.pid)) return true;
  const start = await startTimeOf(holder.pid);
  return start !== undefined && holder.start !== '' && start !== holder.start;
}

/**
 * Moves the stale lock aside under a name of our own, then checks that what moved is the stale
 * lock read before: if another writer broke it and took the lock in between, its lock is put back.
 */
async function breakLock(path: string, stale: LockOwner): Promise<void> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // another writer broke it first
    throw lockError(path, error);
  }
  const moved = await readOwner(aside);
  if (moved !== 'gone' && moved !== 'unreadable' && (moved.pid !== stale.pid || moved.nonce !== stale.nonce)) {
    // A live lock: put it back (when a third writer took the lock meanwhile, its own stays).
    await link(aside, path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(path, error);
    });
  }
  await rm(aside, { force: true });
}

async function release(path: string, me: LockOwner): Promise<void> {
  const holder = await readOwner(path);
  // Only our own hold is removed (a lock broken as stale while we were frozen is another's now).
  if (holder !== 'gone' && holder !== 'unreadable' && holder.pid === me.pid && holder.nonce === me.nonce) await rm(path, { force: true });
}

/** When `pid` started, in the OS's units; undefined where that cannot be read (then only whether it runs counts). */
async function startTimeOf(pid: number): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted after the command name, which may itself hold spaces and ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined; // no such process (or no /proc): processAlive decides
  }
}

function lockError(path: string, error: unknown): HarborError {
  return new HarborError('CONFIG_IO', `Cannot use the lock file ${path}: ${(error as Error).message}. Check that its folder is writable.`, undefined, { cause: error });
}
