import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Harbor keeps its files when no flag says otherwise. Matches Electron's
 * `app.getPath('userData')` for productName "Harbor", so the CLI and the app share one registry.
 * HARBOR_CONFIG / HARBOR_DATA_DIR override (tests, portable setups).
 */
export function defaultAppDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Harbor');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Harbor');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Harbor');
}

export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.HARBOR_CONFIG || join(defaultAppDir(env), 'harbor.json');
}

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HARBOR_DATA_DIR || defaultAppDir(env);
}
