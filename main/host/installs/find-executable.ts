import { existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Where `name` would be found on a server's PATH (Harbor's own, and the login shell's), or
 * undefined. Used to say up front that a runtime an install needs (uv) is missing, instead of
 * letting the server fail at its first start.
 */
export function findExecutable(name: string, paths: ReadonlyArray<string | undefined>): string | undefined {
  const names = process.platform === 'win32' ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  const dirs = [...new Set(paths.flatMap((path) => (path ?? '').split(delimiter)).filter(Boolean))];
  for (const dir of dirs) {
    for (const candidate of names) {
      const full = join(dir, candidate);
      try {
        if (existsSync(full) && statSync(full).isFile()) return full;
      } catch {
        // unreadable folder: not there
      }
    }
  }
  return undefined;
}
