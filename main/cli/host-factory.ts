import { resolve } from 'node:path';
import { APP_NAME, APP_VERSION } from '../app-meta';
import { Host, defaultRegistry, type HostOptions } from '../host/host';
import { defaultConfigPath, defaultDataDir } from '../host/paths';
import { DEFAULT_KEYCHAIN_SERVICE, KeychainSecretStore } from '../host/secrets/keychain-store';
import type { CliContext } from './command';
import { resourcesDir } from './layout';

/** The Host as the CLI and browser mode build it: plain Node, paths from flags or defaults. */
export function createCliHost(
  globals: CliContext['globals'],
  mode: 'cli' | 'web' = 'cli',
  overrides: Partial<HostOptions> = {},
): Promise<Host> {
  return Host.create({
    configPath: resolve(globals.config ?? defaultConfigPath()),
    dataDir: resolve(globals.dataDir ?? defaultDataDir()),
    appName: APP_NAME,
    appVersion: APP_VERSION,
    mode,
    ...(globals.freshEnv ? { freshEnv: true } : {}),
    defaultRegistry,
    launchVariables: { node: process.execPath, resources: resourcesDir() },
    // HARBOR_KEYCHAIN_SERVICE keeps tests (and portable setups) apart from the person's own secrets.
    secrets: new KeychainSecretStore({ service: process.env.HARBOR_KEYCHAIN_SERVICE || DEFAULT_KEYCHAIN_SERVICE }),
    // A damaged tasks.db set aside, and the like: one line, like every CLI message.
    warn: (message) => void process.stderr.write(`harbor: ${message}\n`),
    // A benchmark's switch: `npm run bench` measures a one-shot command with and without the reaper.
    ...(process.env.HARBOR_REAPER === '0' ? { reaper: false } : {}),
    ...overrides,
  });
}
