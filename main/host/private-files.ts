/**
 * Harbor's data is the person's alone: consent decisions, conversations (what they asked a model,
 * what their tools returned), server caches and logs. On Linux and macOS the data folder is 0700
 * and every file Harbor creates in it 0600, created so from the start (a mode on every create)
 * rather than fixed afterwards; a folder an older Harbor created 0755, with 0644 databases in it,
 * is tightened when Harbor opens it. Windows has no mode bits: a folder under %APPDATA% is already
 * the user's own by its inherited ACL, so nothing is done there.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const GROUP_AND_OTHERS = 0o077;
const HAS_MODES = process.platform !== 'win32';

/** Creates `dir` and any missing parent owner-only; an existing folder is left as it is. */
export function makePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/**
 * Takes group and other access away from `path` when it is the person's own file or folder and
 * has any (its owner's bits stay: a script keeps its x). Symlinks are not followed: a registry
 * linked from a dotfiles repository keeps the mode its owner chose. Best effort: a file that
 * cannot be changed is left as it is.
 */
function tighten(path: string): void {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || (stat.mode & GROUP_AND_OTHERS) === 0) return;
    if (process.getuid && stat.uid !== process.getuid()) return;
    chmodSync(path, stat.mode & 0o700);
  } catch {
    // Gone since, or not ours to change.
  }
}

/**
 * The data folder, private: created 0700 when missing; when it exists, it and the files directly
 * in it lose group and other access (a folder only its owner can enter already hides what is
 * deeper).
 */
export function securePrivateFolder(dir: string): void {
  makePrivateFolder(dir);
  if (!HAS_MODES) return;
  tighten(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) tighten(join(dir, entry.name));
  }
}

/**
 * Call before SQLite opens `path`. SQLite creates a database 0644, and its -wal, -shm and
 * -journal files with the database file's own mode: so the file is created here first, empty
 * (an empty file is an empty database) and owner-only, and its companions follow. An existing
 * database and companions lose group and other access.
 */
export function preparePrivateDatabase(path: string): void {
  makePrivateFolder(dirname(path));
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  if (!HAS_MODES) return;
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) tighten(file);
}
