import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-files';
import { processAlive } from './process-alive';

/**
 * Writes a file so that readers see the old bytes or the new ones, never half a file, and the new
 * bytes survive a power cut once this returns: the temp file is fsynced before the rename, the
 * folder after it. Temp files that killed writers of the same file left behind are removed first.
 */
export async function writeFileAtomic(path: string, text: string, mode = PRIVATE_FILE_MODE): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  await removeDeadTemps(path);
  const tmp = tempName(path);
  try {
    await writeSynced(tmp, text, mode);
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  await syncFolder(dirname(path));
}

/** `<path>.<pid>.<random>.tmp`: the pid tells a later process whether its writer is gone. */
export function tempName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** Creates `path` (never replacing one: 'wx'), writes `text` and fsyncs it. */
export async function writeSynced(path: string, text: string, mode: number): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename or link in `folder` durable. Windows cannot open a folder for this (its renames are journaled). */
export async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Removes `<name>.<pid>.<random>.tmp` (and `<name>.bak.<pid>.<random>.tmp`) files beside `path`
 * whose writer is no longer running: what a kill before the rename leaves. A live writer's are kept.
 */
export async function removeDeadTemps(path: string): Promise<string[]> {
  const folder = dirname(path);
  const name = basename(path);
  const entries = await readdir(folder).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [] as string[];
    throw error;
  });
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.startsWith(`${name}.`)) continue;
    const match = /^(?:bak\.|lock\.)?(\d+)\.[0-9a-f]+\.(?:tmp|stale)$/.exec(entry.slice(name.length + 1));
    if (!match || processAlive(Number(match[1]))) continue;
    await rm(join(folder, entry), { force: true });
    removed.push(entry);
  }
  return removed;
}
