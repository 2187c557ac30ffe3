import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Harbor folder (the one holding package.json), found by walking up from this module. The
 * built CLI is split into chunks at different depths (out/main/cli.js, out/main/chunks/…) and the
 * sources sit elsewhere again, so no fixed number of ".." is right for every module that asks.
 */
export function packageRoot(moduleUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Harbor's package.json was not found above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
}

/** The bundled resources folder (the example server). */
export function resourcesDir(): string {
  return join(packageRoot(), 'resources');
}

/** The built renderer that browser mode serves (npm run build writes it). */
export function builtRendererDir(): string {
  return join(packageRoot(), 'out', 'renderer');
}
