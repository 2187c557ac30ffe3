/**
 * What of Harbor's data folder belongs to one sandboxed server, and so stays readable to it through
 * the hidden data folder. An allow-list, decided from Harbor's own record of the server and never
 * from what its launch names (command, arguments, cwd and env values can name anything):
 *
 * - an installed bundle's own folder, `bundles/NAME/VERSION/` (the registry entry's `installed.dir`);
 * - the example server's notes, `notes/`.
 *
 * Each is resolved (`..`, symlinks) and kept only where it is exactly that place of the (resolved)
 * data folder: a link at or above it, or a record pointing elsewhere, makes it no one's. Every
 * other file of the data folder, present or future, stays hidden.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** What Harbor's records say a server owns inside the data folder. */
export interface OwnFolderClaims {
  /** The folder its bundle was unpacked to (an installed bundle's `installed.dir`). */
  readonly bundleDir?: string;
  /** It is Harbor's own example server, which keeps its notes in `notes/`. */
  readonly exampleServer?: boolean;
}

/** Where the example server keeps its notes inside the data folder (`${harbor:data}/notes`). */
export const EXAMPLE_NOTES_FOLDER = 'notes';

/** The folders of the data folder that belong to the server: absolute, as named under `dataDir`. */
export async function ownDataFolders(dataDir: string, claims: OwnFolderClaims): Promise<string[]> {
  const wanted: string[][] = [];
  const bundle = claims.bundleDir === undefined ? undefined : bundleFolderParts(dataDir, claims.bundleDir);
  if (bundle) wanted.push(bundle);
  if (claims.exampleServer) wanted.push([EXAMPLE_NOTES_FOLDER]);
  if (wanted.length === 0) return [];
  const realData = await resolved(dataDir);
  if (realData === undefined) return [];
  const own: string[] = [];
  for (const parts of wanted) {
    // Absent: nothing to read back. Resolving anywhere but its own place: not the server's.
    if ((await resolved(join(dataDir, ...parts))) === join(realData, ...parts)) own.push(join(dataDir, ...parts));
  }
  return own;
}

/** `['bundles', NAME, VERSION]` when `dir` is exactly such a folder of the data folder. */
export function bundleFolderParts(dataDir: string, dir: string): string[] | undefined {
  // Judged as written: `bundles/a/1.0.0/../../b/1.0.0` is bundle b's folder under a's record.
  if (!isAbsolute(dir) || dir.split(/[\\/]/).some((part) => part === '.' || part === '..')) return undefined;
  const rel = relative(resolve(dataDir), resolve(dir));
  if (isAbsolute(rel)) return undefined;
  const parts = rel.split(sep);
  // Dot-named entries are Harbor's scratch (`.staging-…`, `.trash-…`), and `..` leaves the folder.
  if (parts.length !== 3 || parts[0] !== 'bundles' || parts.some((part) => part === '' || part.startsWith('.'))) return undefined;
  return parts;
}

async function resolved(path: string): Promise<string | undefined> {
  // A path that does not resolve (absent, a dangling link, unreadable) names nothing to allow.
  return realpath(path).catch(() => undefined);
}
