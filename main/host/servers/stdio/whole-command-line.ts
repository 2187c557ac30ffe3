/**
 * A "command" that is really a whole command line (`node /srv/server.mjs --flag`, `npx -y @x/server`)
 * is one program name to the spawn, and fails as "not found" — while the program it starts with
 * exists. Told apart here so no message blames a program that is installed: the line is split with
 * `shell-quote` (POSIX words, quotes honoured, nothing expanded) and its first word looked up.
 */
import { statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { parse } from 'shell-quote';

export interface WholeCommandLine {
  readonly program: string;
  readonly args: readonly string[];
}

/** `$` stands for itself in a command Harbor runs (`${harbor:node}`, `$HOME` in an argument): hidden from the parser's expansion. */
const DOLLAR = '\uE000';

/** The words of a command line; undefined when it holds a shell operator (`|`, `>`, `&&`…), which no shell will run. */
export function commandWords(line: string): string[] | undefined {
  const words: string[] = [];
  for (const token of parse(line.replaceAll('$', DOLLAR))) {
    if (typeof token === 'string') words.push(token.replaceAll(DOLLAR, '$'));
    else if ('op' in token && token.op === 'glob') words.push(token.pattern.replaceAll(DOLLAR, '$'));
    else if ('comment' in token) break;
    else return undefined;
  }
  return words;
}

/**
 * The split of `command` when it holds spaces, is not itself a file, and its first word is a
 * program found as given (a path) or on `path`; otherwise undefined.
 */
export function wholeCommandLine(command: string, path: string | undefined, platform: NodeJS.Platform = process.platform): WholeCommandLine | undefined {
  const trimmed = command.trim();
  if (!/\s/.test(trimmed) || isFile(trimmed)) return undefined;
  const words = commandWords(trimmed);
  if (!words || words.length < 2) return undefined;
  const [program, ...args] = words as [string, ...string[]];
  return programExists(program, path, platform) ? { program, args } : undefined;
}

/** "this looks like a whole command line: program "node", arguments "/srv/x.mjs" "--flag"". */
export function describeWholeCommandLine(line: WholeCommandLine): string {
  return `this looks like a whole command line: program "${line.program}", arguments ${line.args.map((a) => JSON.stringify(a)).join(' ')}`;
}

/** The fix, as one sentence. */
export function splitFix(line: WholeCommandLine): string {
  return `Put "${line.program}" in "command" and each of the rest in "args" (the add-server form splits a pasted line for you).`;
}

function programExists(program: string, path: string | undefined, platform: NodeJS.Platform): boolean {
  if (isAbsolute(program) || /[\\/]/.test(program)) return isFile(program);
  const names = platform === 'win32' ? [`${program}.exe`, `${program}.cmd`, program] : [program];
  return (path ?? '')
    .split(platform === 'win32' ? ';' : delimiter)
    .filter(Boolean)
    .some((folder) => names.some((name) => isFile(join(folder, name))));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    // Missing or unreadable: not a program Harbor could run.
    return false;
  }
}
