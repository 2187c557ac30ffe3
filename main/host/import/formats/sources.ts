import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import { FORMAT_LABELS, type ImportFormat } from './types';

export interface ImportSource {
  readonly format: ImportFormat;
  /** "Claude Desktop", "VS Code", "Cursor" — for an "Import from…" menu. */
  readonly label: string;
  /** Where the app keeps its user-level MCP configuration on this platform. */
  readonly path: string;
}

/**
 * The usual user-level configuration files of the apps Harbor imports from. The paths are computed
 * from `platform` and `env` (no file-system access) so the UI can list them, check which
 * exist, and so a test can ask for another platform's paths.
 */
export function defaultImportSources(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): ImportSource[] {
  const windows = platform === 'win32';
  const path = windows ? win32 : posix;
  const home = (windows ? (env.USERPROFILE ?? env.HOME) : (env.HOME ?? env.USERPROFILE)) ?? homedir();
  // Where Electron apps keep their per-user data: the same folder Harbor uses (main/host/paths.ts).
  const appData = windows
    ? (env.APPDATA ?? path.join(home, 'AppData', 'Roaming'))
    : platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support')
      : env.XDG_CONFIG_HOME || path.join(home, '.config');
  const source = (format: ImportFormat, file: string): ImportSource => ({ format, label: FORMAT_LABELS[format], path: file });
  return [
    source('claude-desktop', path.join(appData, 'Claude', 'claude_desktop_config.json')),
    source('vscode', path.join(appData, 'Code', 'User', 'mcp.json')),
    source('cursor', path.join(home, '.cursor', 'mcp.json')),
  ];
}
