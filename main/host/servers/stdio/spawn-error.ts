/**
 * Turns a failed spawn (`spawn npx ENOENT`) into a message a person can act on: what Harbor looked
 * for, where, and how to fix it.
 */
import { statSync } from 'node:fs';
import { HarborError } from '../../errors';
import { describeWholeCommandLine, splitFix, wholeCommandLine } from './whole-command-line';
import { lookupIgnoringCase } from './windows-command';

export interface SpawnContext {
  command: string;
  cwd?: string | undefined;
  env: NodeJS.ProcessEnv | Record<string, string>;
  platform: NodeJS.Platform;
}

/** What to install for the launchers people most often configure. */
const INSTALL_HINTS: Record<string, string> = {
  npx: 'Install Node.js',
  node: 'Install Node.js',
  npm: 'Install Node.js',
  uvx: 'Install uv (https://docs.astral.sh/uv/)',
  uv: 'Install uv (https://docs.astral.sh/uv/)',
  python: 'Install Python',
  python3: 'Install Python',
  pipx: 'Install pipx',
  docker: 'Install Docker',
  deno: 'Install Deno',
  bunx: 'Install Bun',
  bun: 'Install Bun',
};

export function spawnFailure(error: unknown, context: SpawnContext): HarborError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const raw = error instanceof Error ? error.message : String(error);
  const { command, cwd, env, platform } = context;

  // Node reports a missing working directory as `spawn <command> ENOENT` too: say which it was.
  if ((code === 'ENOENT' || code === 'ENOTDIR') && cwd !== undefined && !isFolder(cwd)) {
    return new HarborError(
      'SPAWN_FAILED',
      `Harbor could not start "${command}": its working directory "${cwd}" does not exist (or is not a folder). Set "cwd" in the server's entry to an existing folder (servers start in your home folder when "cwd" is not set).`,
      raw,
      { cause: error },
    );
  }
  if (code === 'ENOENT') {
    // Never blame a program that exists: "node /srv/x.mjs" is not found, "node" is.
    const whole = wholeCommandLine(command, lookupIgnoringCase(env, 'PATH'), platform);
    if (whole) {
      return new HarborError('SPAWN_FAILED', `Harbor could not start "${command}": ${describeWholeCommandLine(whole)}. ${splitFix(whole)}`, raw, { cause: error });
    }
    const base = baseName(command);
    const install = INSTALL_HINTS[base.toLowerCase().replace(/\.(exe|cmd|bat)$/, '')] ?? `Install ${base}`;
    const example = platform === 'win32' ? `C:\\path\\to\\${base}.exe` : `/usr/local/bin/${base}`;
    if (/[\\/]/.test(command)) {
      return new HarborError(
        'SPAWN_FAILED',
        `Harbor could not find "${command}": no such file. Check the path in "command", or ${install.toLowerCase()}.`,
        raw,
        { cause: error },
      );
    }
    const path = lookupIgnoringCase(env, 'PATH') ?? '(PATH is empty)';
    return new HarborError(
      'SPAWN_FAILED',
      `Harbor could not find "${command}" on PATH (${path}). ${install}, or set "command" to the full path (e.g. ${example}).`,
      raw,
      { cause: error },
    );
  }
  if (code === 'EACCES') {
    return new HarborError(
      'SPAWN_FAILED',
      `Harbor may not run "${command}": permission denied. Make it executable (chmod +x) or point "command" at the program itself.`,
      raw,
      { cause: error },
    );
  }
  if (code === 'EINVAL' && platform === 'win32') {
    return new HarborError(
      'SPAWN_FAILED',
      `Windows refused to start "${command}" (${raw}). Set "command" to the .exe, or to the full path of the .cmd file.`,
      raw,
      { cause: error },
    );
  }
  return new HarborError('SPAWN_FAILED', `Harbor could not start "${command}": ${raw}.`, raw, { cause: error });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function baseName(command: string): string {
  const parts = command.split(/[\\/]/);
  return parts[parts.length - 1] || command;
}
