import { resolve } from 'node:path';
import { APP_NAME, APP_VERSION } from '../app-meta';
import { Host } from '../host/host';
import { defaultConfigPath, defaultDataDir } from '../host/paths';
import type { CliContext } from './command';

/** The Host as the CLI and browser mode build it: plain Node, paths from flags or defaults. */
export function createCliHost(globals: CliContext['globals'], mode: 'cli' | 'web' = 'cli'): Promise<Host> {
  return Host.create({
    configPath: resolve(globals.config ?? defaultConfigPath()),
    dataDir: resolve(globals.dataDir ?? defaultDataDir()),
    appName: APP_NAME,
    appVersion: APP_VERSION,
    mode,
  });
}
