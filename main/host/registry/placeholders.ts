import { isStdio, type ServerConfig } from './schema';

/**
 * Placeholders other apps fill in and Harbor does not: VS Code's `${input:…}` (a value it asks
 * for), `${env:…}`, `${config:…}`, `${command:…}` and its predefined variables (Cursor uses the
 * same). Left in a registry entry (an import could not fill them) they would reach the server as
 * literal text — a folder named "${input:root-dir}", a token "${input:gh-token}" — so such a
 * server is not started. Shell-style `${HOME}` is not among them: a `sh -c` command line may
 * carry it on purpose, and Harbor's own `${secret:…}` and `${harbor:…}` are resolved at start.
 */
const APP_SCOPES = new Set(['input', 'env', 'config', 'command', 'workspaceFolder', 'workspaceFolderBasename']);
const APP_VARIABLES = new Set([
  'workspaceFolder',
  'workspaceFolderBasename',
  'workspaceRoot',
  'userHome',
  'pathSeparator',
  '/',
  'cwd',
  'execPath',
  'file',
  'fileWorkspaceFolder',
  'relativeFile',
  'relativeFileDirname',
  'fileBasename',
  'fileBasenameNoExtension',
  'fileExtname',
  'fileDirname',
  'fileDirnameBasename',
  'lineNumber',
  'selectedText',
  'defaultBuildTask',
]);

const REFERENCE = /\$\{([^}]*)\}/g;

/** Every string a server is launched or reached with, with its place in the entry (`args[1]`, `env.KEY`). */
export function* launchStrings(config: ServerConfig): Generator<[where: string, text: string]> {
  if (isStdio(config)) {
    yield ['command', config.command];
    for (const [i, arg] of (config.args ?? []).entries()) yield [`args[${i}]`, arg];
    for (const [key, value] of Object.entries(config.env ?? {})) yield [`env.${key}`, value];
    if (config.cwd !== undefined) yield ['cwd', config.cwd];
  } else {
    yield ['url', config.url];
    for (const [key, value] of Object.entries(config.headers ?? {})) yield [`headers.${key}`, value];
  }
}

/** True for `${input:x}`, `${workspaceFolder}` and the other placeholders of another app (see above). */
export function isAppPlaceholder(inner: string): boolean {
  const colon = inner.indexOf(':');
  return colon > 0 ? APP_SCOPES.has(inner.slice(0, colon)) : APP_VARIABLES.has(inner);
}

/** Another app's placeholders left in a server's entry, each with where it stands. */
export function appPlaceholders(config: ServerConfig): Array<{ readonly where: string; readonly variable: string }> {
  const found: Array<{ where: string; variable: string }> = [];
  for (const [where, text] of launchStrings(config)) {
    for (const match of text.matchAll(REFERENCE)) if (isAppPlaceholder(match[1]!.trim())) found.push({ where, variable: match[0] });
  }
  return found;
}

/**
 * Why this server cannot be started as its entry is written, one line per problem with its field,
 * or none — from the entry alone (no disk: the renderer's tests use it too). The Host's full check,
 * which also asks the disk about a bundle's folder, is entry-problems.ts.
 */
export function configEntryProblems(config: ServerConfig): string[] {
  const problems: string[] = [];
  if (isStdio(config) && 'url' in config) {
    problems.push('has both "command" and "url": Harbor would run the command and ignore the URL. Keep "command" for a local server or "url" for a remote one');
  }
  for (const { where, variable } of appPlaceholders(config)) {
    problems.push(
      variable.startsWith('${input:')
        ? `${where}: ${variable} is a value another app (VS Code) asks for when the server starts; Harbor does not. Put the value in its place (a secret as \${secret:NAME}), or import the file again with --set ${variable.slice(8, -1)}=VALUE`
        : `${where}: ${variable} is a variable another app fills in; Harbor does not. Replace it with the real value`,
    );
  }
  return problems;
}

/** The error a server with entry problems shows instead of starting. */
export function cannotStartMessage(name: string, problems: readonly string[]): string {
  return `"${name}" cannot start as written: ${problems.join('; ')}.`;
}
