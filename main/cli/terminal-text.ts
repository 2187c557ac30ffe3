/**
 * Text bound for a terminal, made inert. Much of what the CLI prints was written by a server (tool
 * names and descriptions, results, error messages, stderr), and a terminal obeys control
 * characters: ESC and C1 sequences can write the clipboard (OSC 52), hide text (SGR 8), retitle the
 * window or clear the screen, and a lone carriage return lets a line overwrite what came before it.
 * Each such character is shown as a visible `\u001b`-style escape instead:
 *
 * - C0 controls except tab and line feed (layout), and a carriage return only when it ends a line
 *   (CRLF text is common and harmless);
 * - DEL and the C1 controls U+0080–U+009F (U+009B is a one-character CSI);
 * - the bidirectional controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069), which reorder
 *   what a terminal with bidi support shows, and the line/paragraph separators.
 *
 * Everything else — accents, CJK, emoji — passes as it is.
 */
const UNSAFE = /(?![\t\n\r])\p{Cc}|\r(?!\n)|[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const escape = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every character that would act on the terminal shown as `\uXXXX`. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** The C1 controls and separators JSON.stringify leaves raw (it escapes only C0). */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029]/g;

/**
 * A JSON text whose strings carry no raw C1 control either: the same value for every parser,
 * and safe when a person runs `--json` without a pipe. Those characters can only occur inside
 * strings, where `\uXXXX` means the same.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(RAW_IN_JSON, escape);
}
