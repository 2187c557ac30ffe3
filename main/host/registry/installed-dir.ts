/**
 * A bundle's `installed.dir` (install-fields.ts): the folder Harbor unpacked it to,
 * `DATA/bundles/NAME/VERSION`. The sandbox lets a server read back that folder of the data folder
 * and nothing else of it (sandbox/own-folders.ts), so the record must say plainly which folder it
 * is: written as `bundles/a/1.0.0/../../b/1.0.0`, or through a link inside `bundles/a/`, it would
 * hand server "a" the folder of bundle "b". Such a record is a problem of its server (it does not
 * start; the other servers keep working). Only Harbor's installer and the person write it.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

const FIX = 'a bundle\'s folder is written as Harbor\'s data folder + "bundles/NAME/VERSION", without "." or ".." and not through a link. Install the bundle again (harbor install FILE.mcpb, or drop it on the app) so Harbor writes it, or correct the path';

/** The segments of a path as written, on either separator (Windows takes both). */
function segments(path: string): string[] {
  return path.split(/[\\/]/);
}

/** What is wrong with a bundle's recorded folder, as a problem line starting with its field, or undefined. */
export function installedDirProblem(dir: string): string | undefined {
  const where = `installed.dir: "${dir}"`;
  if (!isAbsolute(dir)) return `${where} is not an absolute path: ${FIX}`;
  const parts = segments(dir);
  if (parts.some((part) => part === '.' || part === '..')) {
    return `${where} goes through "." or ".." (it resolves to ${resolve(dir)}), so it is not the folder it names: ${FIX}`;
  }
  const [bundles, name, version] = parts.slice(-3);
  if (parts.length < 4 || bundles !== 'bundles' || !name || !version || name.startsWith('.') || version.startsWith('.')) {
    return `${where} is not a folder bundles/NAME/VERSION: ${FIX}`;
  }
  const real = realpathOrUndefined(dir);
  // Absent (removed by hand): nothing to read back; the launch says what is missing.
  if (real === undefined) return undefined;
  const root = realpathOrUndefined(dirname(dirname(dir)));
  if (root === undefined || real !== join(root, name, version)) {
    return `${where} leads through a link to ${real}, outside the folder it names (bundles/${name}/${version}): ${FIX}`;
  }
  return undefined;
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    // Absent, a dangling link or unreadable: it names nothing that could be read back.
    return undefined;
  }
}
