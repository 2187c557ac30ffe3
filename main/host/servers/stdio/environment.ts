/**
 * The environment a stdio server is started with. Harbor's own environment (API keys of other
 * tools, tokens in the shell profile, …) is not the server's business: only a short allowlist is
 * inherited, plus the `env` the person configured for that server. PATH may be replaced by the
 * login shell's PATH so that a GUI launch (which gets a bare launchd/systemd PATH) still finds
 * npx, uvx, docker and friends.
 */
import { lookupIgnoringCase } from './windows-command';

export { LoginShellPath } from './login-shell-path';
export { resolveCommand } from './windows-command';

/** Inherited on macOS/Linux (the SDK's list plus locale and temp/runtime dirs). */
export const POSIX_INHERITED_ENV = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'XDG_RUNTIME_DIR',
] as const;

/** Inherited on Windows (the SDK's list, plus TMP beside TEMP). */
export const WINDOWS_INHERITED_ENV = [
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'PROGRAMW6432',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'WINDIR',
] as const;

export interface BuildServerEnvOptions {
  /** Harbor's own environment (normally `process.env`). */
  base: NodeJS.ProcessEnv;
  /** The server's configured `env`; it wins over everything else. */
  serverEnv: Record<string, string> | undefined;
  /** The login shell's PATH (see LoginShellPath), used instead of the inherited PATH. */
  loginPath?: string | undefined;
  platform: NodeJS.Platform;
}

export function buildServerEnv({ base, serverEnv, loginPath, platform }: BuildServerEnvOptions): Record<string, string> {
  const windows = platform === 'win32';
  const env: Record<string, string> = {};
  for (const name of windows ? WINDOWS_INHERITED_ENV : POSIX_INHERITED_ENV) {
    // Windows variable names are case-insensitive ("Path" is the usual spelling of PATH), but a
    // plain object copy of the environment is not: look the name up ignoring case there.
    const value = windows ? lookupIgnoringCase(base, name) : base[name];
    if (value === undefined) continue;
    // Bash exported functions ("() { …") are code, not data (Shellshock): never pass them on.
    if (value.startsWith('()')) continue;
    env[name] = value;
  }
  if (loginPath !== undefined && loginPath !== '') env.PATH = loginPath;
  if (serverEnv) {
    for (const [name, value] of Object.entries(serverEnv)) {
      if (windows) {
        // Keep one spelling per name, so the configured one really replaces the inherited one.
        for (const existing of Object.keys(env)) {
          if (existing.toUpperCase() === name.toUpperCase()) delete env[existing];
        }
      }
      env[name] = value;
    }
  }
  return env;
}
