/**
 * Text a server, a config file or a link chose, made safe to decide on: every character that
 * changes how text reads without being seen is shown as a visible ⟨U+XXXX⟩ instead of acting.
 *
 * - C0 and C1 controls and DEL;
 * - format characters: bidi embeddings, overrides, isolates and marks (U+202A–U+202E,
 *   U+2066–U+2069, U+200E/F, U+061C), which reorder what follows ("report\u202Etxt.exe" reads as
 *   "reportexe.txt"), zero-width characters, the soft hyphen, the byte-order mark, tag characters;
 * - every other default-ignorable character (variation selectors, Hangul fillers, …);
 * - line and paragraph separators and every space that is not a plain U+0020.
 *
 * Plain spaces at the start or end of a one-line value become ␣, so "github " cannot pose as
 * "github". Multi-line text (arguments as JSON, descriptions) keeps its line breaks, tabs and
 * indentation. Emoji stay emoji: their presentation selector (U+FE0F) and the joiner inside an
 * emoji sequence are shown as they are, since they hide nothing.
 */
const UNSEEN = /^(?:[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|[^\S ])$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const EDGE_SPACES = /^ +| +$/g;

/** What an escaped character looks like: ⟨U+202E⟩. */
export function codePointLabel(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

export const EDGE_SPACE_MARK = '␣';

function isEmojiGlue(char: string, before = '', after = ''): boolean {
  if (char === '\uFE0F') return PICTOGRAPH.test(before);
  if (char === '\u200D') return PICTOGRAPH.test(before) && PICTOGRAPH.test(after);
  return false;
}

function escapeUnseen(text: string, keep: ReadonlySet<string>): string {
  const chars = Array.from(text);
  return chars
    .map((char, i) => (!UNSEEN.test(char) || keep.has(char) || isEmojiGlue(char, chars[i - 1], chars[i + 1]) ? char : codePointLabel(char)))
    .join('');
}

const NOTHING_KEPT: ReadonlySet<string> = new Set();
const LAYOUT_KEPT: ReadonlySet<string> = new Set(['\n', '\t']);

/**
 * `text` with its unseen characters made visible. One-line values (names, command lines, paths,
 * addresses) also get their edge spaces marked; `multiline` keeps line breaks (CRLF as LF), tabs
 * and indentation as they are.
 */
export function visibleText(text: string, options: { readonly multiline?: boolean } = {}): string {
  if (options.multiline) return escapeUnseen(text.replace(/\r\n/g, '\n'), LAYOUT_KEPT);
  return escapeUnseen(text, NOTHING_KEPT).replace(EDGE_SPACES, (spaces) => EDGE_SPACE_MARK.repeat(spaces.length));
}
