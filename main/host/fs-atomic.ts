import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-files';

/** Writes a file so that readers see the old bytes or the new ones, never half a file. */
export async function writeFileAtomic(path: string, text: string, mode = PRIVATE_FILE_MODE): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, text, { encoding: 'utf8', mode });
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
