/**
 * A command line pasted into the add-server form's Command field, split into the program and its
 * arguments with `shell-quote` (POSIX words: quotes and backslashes honoured, nothing expanded —
 * `$HOME` and `${harbor:node}` stay as typed). Pure: unit-tested without a DOM.
 */
import { parse } from 'shell-quote';

export type CommandLineSplit = { readonly ok: true; readonly words: readonly string[] } | { readonly ok: false; readonly problem: string };

/** `$` stands for itself (Harbor's `${harbor:node}`, a `$HOME` an argument means literally): hidden from the parser's expansion. */
const DOLLAR = '\uE000';

export function splitCommandLine(line: string): CommandLineSplit {
  const words: string[] = [];
  for (const token of parse(line.replaceAll('$', DOLLAR))) {
    if (typeof token === 'string') words.push(token.replaceAll(DOLLAR, '$'));
    else if ('op' in token && token.op === 'glob') words.push(token.pattern.replaceAll(DOLLAR, '$'));
    else if ('comment' in token) break;
    else {
      return {
        ok: false,
        problem: `This line uses the shell's "${token.op}", and Harbor runs one program with its arguments, without a shell. Put the server's own command here, or a script that does the rest.`,
      };
    }
  }
  return { ok: true, words };
}
