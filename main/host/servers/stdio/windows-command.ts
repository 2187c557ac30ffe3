/**
 * How a configured `command` becomes something `child_process.spawn(file, args, {shell:false})`
 * can run. On macOS/Linux: unchanged. On Windows, most MCP launchers are batch shims (`npx.cmd`,
 * every npm global, many node_modules/.bin entries), and since CVE-2024-27980 ("BatBadBut") Node
 * refuses to spawn a .cmd/.bat with `shell:false` — rightly, because cmd.exe re-parses the
 * arguments and a quote in one of them can smuggle `&calc` into a command line. So a shim is found
 * on PATH+PATHEXT and run explicitly as `cmd.exe /d /s /c "<line>"` with every argument quoted
 * for the C runtime AND caret-escaped for cmd.exe — twice, because an npm shim passes its
 * arguments on with `%*`, which cmd.exe parses a second time.
 *
 * Everything here is a pure function of its inputs (file checks are injected), so the quoting is
 * unit-tested on any OS.
 */
import { statSync } from 'node:fs';
import { win32 } from 'node:path';
import { HarborError } from '../../errors';

export interface ResolvedCommand {
  file: string;
  args: string[];
  /** Pass to spawn: the args are already quoted for cmd.exe and must not be quoted again. */
  windowsVerbatimArguments?: boolean;
}

export interface ResolveCommandDeps {
  /** Whether a path is an existing regular file (default: a real stat). */
  isFile?: (path: string) => boolean;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** cmd.exe characters that end, redirect, expand or group unless escaped with `^`. */
const CMD_META = /[()[\]%!^"`<>&|;, *?]/g;

export function resolveCommand(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv | Record<string, string>,
  platform: NodeJS.Platform,
  deps: ResolveCommandDeps = {},
): ResolvedCommand {
  if (platform !== 'win32') return { file: command, args: [...args] };
  const isFile = deps.isFile ?? isRegularFile;
  const file = findWindowsExecutable(command, env, isFile) ?? command;
  if (!isBatchFile(file)) return { file, args: [...args] };
  for (const arg of args) {
    if (/[\r\n\0]/.test(arg)) {
      throw new HarborError(
        'SPAWN_FAILED',
        `An argument for "${command}" contains a line break, which cmd.exe cannot pass to a batch file safely. Remove the line break from "args".`,
      );
    }
  }
  const comspec = lookupIgnoringCase(env, 'COMSPEC') ?? 'cmd.exe';
  const line = [escapeCmdCommand(file), ...args.map((arg) => quoteCmdArgument(arg, true))].join(' ');
  // /d: skip AutoRun registry commands; /s /c "…": strip exactly the outer quotes, run the rest.
  return { file: comspec, args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}

/**
 * Finds `command` the way a person typing it would expect: through PATH with each PATHEXT
 * extension when it has none (so `npx` finds `npx.cmd`). Returns undefined when nothing matches;
 * the spawn then fails with ENOENT and the person gets the "not found on PATH" hint.
 */
export function findWindowsExecutable(
  command: string,
  env: NodeJS.ProcessEnv | Record<string, string>,
  isFile: (path: string) => boolean,
): string | undefined {
  const extensions = (lookupIgnoringCase(env, 'PATHEXT') ?? DEFAULT_PATHEXT)
    .split(';')
    .map((ext) => ext.trim().toLowerCase())
    .filter((ext) => ext.startsWith('.'));
  const hasKnownExtension = extensions.includes(win32.extname(command).toLowerCase());
  const names = hasKnownExtension ? [command] : extensions.map((ext) => command + ext);
  if (/[\\/:]/.test(command)) return names.find(isFile);
  const dirs = (lookupIgnoringCase(env, 'PATH') ?? '')
    .split(';')
    .map((dir) => dir.trim().replace(/^"(.*)"$/, '$1'))
    .filter((dir) => dir !== '');
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = win32.join(dir, name);
      if (isFile(candidate)) return candidate;
    }
  }
  return undefined;
}

export function isBatchFile(file: string): boolean {
  return /\.(cmd|bat)$/i.test(file);
}

/** The batch file's own path on the cmd.exe line: parsed once, so escaped once. */
export function escapeCmdCommand(file: string): string {
  return file.replace(CMD_META, '^$&');
}

/**
 * One argument for a `cmd.exe /d /s /c "…"` line that runs a batch file.
 *
 * 1. Quote it for the Microsoft C runtime (what node.exe uses to split its command line):
 *    backslashes are literal except before a quote, so a run of n backslashes before a quote
 *    becomes 2n+1 backslashes and an escaped quote, and a run at the end (before our closing
 *    quote) is doubled.
 * 2. Caret-escape every cmd.exe metacharacter, the added quotes included, so cmd.exe never enters
 *    "quoted" mode and sees no operator anywhere.
 * 3. With `doubleEscape`, do step 2 again: the first parse (running the .cmd) consumes one level;
 *    the shim's `%*` expansion is parsed again and consumes the second.
 */
export function quoteCmdArgument(arg: string, doubleEscape: boolean): string {
  let escaped = `"${quoteForCrt(arg)}"`.replace(CMD_META, '^$&');
  if (doubleEscape) escaped = escaped.replace(CMD_META, '^$&');
  return escaped;
}

/** The body of a C-runtime quoted argument (without the surrounding quotes). */
export function quoteForCrt(arg: string): string {
  let out = '';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes += 1;
      continue;
    }
    if (ch === '"') {
      out += '\\'.repeat(backslashes * 2 + 1) + '"';
    } else {
      out += '\\'.repeat(backslashes) + ch;
    }
    backslashes = 0;
  }
  return out + '\\'.repeat(backslashes * 2);
}

/** Reads a variable ignoring the case of its name (Windows semantics: "Path" is PATH). */
export function lookupIgnoringCase(env: NodeJS.ProcessEnv | Record<string, string>, name: string): string | undefined {
  const exact = env[name];
  if (exact !== undefined) return exact;
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toUpperCase() === upper && value !== undefined) return value;
  }
  return undefined;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
