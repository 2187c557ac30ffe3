/**
 * A short exclusive lock between processes for a cache file's read-merge-write: a lock file
 * created exclusively (`wx`), holding the owner's pid. A lock whose owner is gone, or older than
 * STALE_MS (a pid reused by another program), is taken over. Only for caches: a process that
 * cannot get the lock in time gives up (`undefined`), which costs a cache miss later, never data.
 */
import { open, readFile, rm, stat } from 'node:fs/promises';
import { PRIVATE_FILE_MODE } from '../private-files';

const STALE_MS = 10_000;
const WAIT_MS = 5_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes `lock` when its owner is gone or it is stale; true when it was removed (or already gone). */
async function clearStale(lock: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lock, 'utf8'), stat(lock)]);
    const pid = Number(text);
    // An empty file is a lock being written this instant: only its age can make it stale.
    const gone = Number.isInteger(pid) && pid > 0 && !alive(pid);
    if (!gone && Date.now() - info.mtimeMs < STALE_MS) return false;
    await rm(lock, { force: true });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** Runs `work` holding `lock`; `undefined` without running it when the lock stayed taken for WAIT_MS. */
export async function withCacheLock<T>(lock: string, work: () => Promise<T>): Promise<T | undefined> {
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx', PRIVATE_FILE_MODE);
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await clearStale(lock)) continue;
      if (Date.now() > deadline) return undefined;
      // Another process holds it for the few milliseconds of a write: back off a little, growing, with jitter.
      await new Promise((resolve) => setTimeout(resolve, Math.min(5 + attempt * 5, 50) * (0.5 + Math.random())));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
