import type { Edit, JSONPath, Node, ParseError } from 'jsonc-parser';
import { jsoncParser } from './jsonc-library';

/**
 * JSON with comments, as people write harbor.json and VS Code's and Cursor's mcp.json: read with
 * `jsonc-parser` (comments and trailing commas allowed, a byte-order mark ignored), and written
 * back as the smallest edits of the person's own text, so their comments, key order and
 * indentation stay where they were.
 */

export interface JsoncProblem {
  /** `line 4, column 7: expected ","` — where, then what, in plain words. */
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

export type JsoncResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: JsoncProblem };

const BOM = '\uFEFF';

const WORDS: Partial<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'not a valid number',
  PropertyNameExpected: 'expected a name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the end of the document',
  InvalidCommentToken: 'unexpected comment',
  UnexpectedEndOfComment: 'a comment that is never closed ("*/" missing)',
  UnexpectedEndOfString: 'a string that is never closed (a " missing)',
  UnexpectedEndOfNumber: 'a number cut short',
  InvalidUnicode: 'an invalid \\u escape',
  InvalidEscapeCharacter: 'an invalid escape character after a backslash',
  InvalidCharacter: 'a control character (a raw tab or line break) inside a string',
};

/** Parses JSON with comments; the first syntax problem comes back with its line and column (1-based). */
export function parseJsonc(text: string): JsoncResult {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  // Plain JSON (most files) reads the same with JSON.parse — "__proto__" stays an own key there
  // too — without loading jsonc-parser. Anything else (comments, a trailing comma, a mistake) goes
  // to jsonc-parser, which reads the comments and places a mistake.
  const plain = plainJson(body);
  if (plain !== NOT_PLAIN) return { ok: true, value: plain };
  const { parseTree, printParseErrorCode } = jsoncParser();
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const first = errors[0];
  if (first || !root) {
    const offset = first?.offset ?? 0;
    const { line, column } = positionAt(body, offset);
    const code = first ? printParseErrorCode(first.error) : 'ValueExpected';
    return { ok: false, problem: { message: `line ${line}, column ${column}: ${WORDS[code] ?? code}`, line, column } };
  }
  return { ok: true, value: valueOf(root) };
}

const NOT_PLAIN = Symbol('not plain JSON');

function plainJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return NOT_PLAIN; // not plain JSON: jsonc-parser reads it, or says where it is wrong
  }
}

/** 1-based line and column of an offset. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return { line: before.split(/\r\n|\r|\n/).length, column: offset - lineStart + 1 };
}

/**
 * The tree's value with every key an own property — `"__proto__"` (a valid server name) stays a
 * key instead of becoming the object's prototype, as it would with plain assignment.
 */
function valueOf(node: Node): unknown {
  if (node.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key || !value) continue;
      Object.defineProperty(out, String(key.value), { value: valueOf(value), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (node.type === 'array') return (node.children ?? []).map(valueOf);
  return node.value as unknown;
}

/**
 * `text` changed so that it holds `after` where it held `before`: each key added, removed or
 * changed is one `modify` edit of the text (a new key lands after the key it follows in `after`),
 * everything else — comments, blank lines, indentation, other keys — is left byte for byte.
 * Undefined when the edited text would not read back as `after` (the caller then writes `after`
 * whole): an edit never changes what the file means beyond what was asked.
 */
export function editedText(text: string, before: unknown, after: unknown): string | undefined {
  const bom = text.startsWith(BOM) ? BOM : '';
  let body = bom ? text.slice(1) : text;
  const layout = layoutOf(body);
  const changes: Change[] = [];
  collectChanges(before, after, [], changes);
  for (const change of changes) {
    // jsonc-parser finds the place and the commas; the text put there is laid out here, in the
    // file's own indentation, so no line around the change is reformatted.
    const { applyEdits, modify } = jsoncParser();
    const edits = modify(body, change.path, change.value, { getInsertionIndex: change.insertionIndex });
    body = applyEdits(body, edits.map((edit) => laidOut(body, edit, change, layout)));
  }
  const reread = parseJsonc(body);
  if (!reread.ok || !sameJson(reread.value, after)) return undefined;
  return bom + body;
}

/**
 * Removing the first entry of an object or array cuts up to the next entry; stop at the next
 * entry's line instead, so it keeps its line and indentation (`{"next"` would join the brace's line).
 */
function keepNextLine(text: string, edit: Edit): Edit {
  if (edit.content !== '' || !/[{[]/.test(text[edit.offset - 1] ?? '')) return edit;
  const end = edit.offset + edit.length;
  let cut = text.lastIndexOf('\n', end - 1);
  if (cut < edit.offset || !/^[ \t]*$/.test(text.slice(cut + 1, end))) return edit;
  if (text[cut - 1] === '\r') cut--;
  return { ...edit, length: Math.max(0, cut - edit.offset) };
}

interface Change {
  readonly path: JSONPath;
  readonly value: unknown;
  readonly insertionIndex?: (properties: string[]) => number;
}

function collectChanges(before: unknown, after: unknown, path: JSONPath, out: Change[]): void {
  if (sameJson(before, after)) return;
  if (!isObject(before) || !isObject(after)) {
    out.push({ path, value: after });
    return;
  }
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key) || after[key] === undefined) out.push({ path: [...path, key], value: undefined });
  }
  const order = Object.keys(after);
  for (const key of order) {
    const value = after[key];
    if (value === undefined) continue;
    if (Object.hasOwn(before, key) && before[key] !== undefined) {
      collectChanges(before[key], value, [...path, key], out);
      continue;
    }
    const rank = order.indexOf(key);
    // After the last key that precedes this one in `after` (a renamed server keeps its place).
    const insertionIndex = (properties: string[]): number => {
      let index = 0;
      properties.forEach((property, i) => {
        const r = order.indexOf(property);
        if (r >= 0 && r < rank) index = i + 1;
      });
      return index;
    };
    out.push({ path: [...path, key], value, insertionIndex });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** Keys sorted, undefined dropped: two values that write the same JSON compare equal. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : canonical(v)));
  if (!isObject(value)) return value;
  const out: [string, unknown][] = [];
  for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out.push([key, canonical(value[key])]);
  return out;
}

interface Layout {
  readonly unit: string;
  readonly eol: string;
}

/** The file's own indentation and line ending, so an inserted key looks like its neighbours. */
function layoutOf(text: string): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indented?.startsWith('\t')) return { unit: '\t', eol };
  return { unit: indented ?? '  ', eol };
}

/** The whitespace a line starts with. */
function indentAt(text: string, offset: number): string {
  const start = Math.max(text.lastIndexOf('\n', offset - 1), text.lastIndexOf('\r', offset - 1)) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** A value as it would be written at `indent`: short lists of plain values on one line, the rest one entry a line. */
function render(value: unknown, indent: string, layout: Layout): string {
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    const line = `[${value.map((v) => JSON.stringify(v ?? null)).join(', ')}]`;
    if (line.length <= 80) return line;
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = indent + layout.unit;
  const entries = Array.isArray(value)
    ? value.map((v) => render(v ?? null, inner, layout))
    : Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${JSON.stringify(k)}: ${render(v, inner, layout)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  return `${open}${layout.eol}${entries.map((e) => inner + e).join(`,${layout.eol}`)}${layout.eol}${indent}${close}`;
}

/**
 * One edit of jsonc-parser's (compact JSON) with its text laid out: a changed value at the
 * indentation of its line; a new key on a line of its own, one level inside its object.
 */
function laidOut(text: string, edit: Edit, change: Change, layout: Layout): Edit {
  if (change.value === undefined) return keepNextLine(text, edit);
  if (!change.insertionIndex) return { ...edit, content: render(change.value, indentAt(text, edit.offset), layout) };
  const key = change.path[change.path.length - 1]!;
  const { findNodeAtLocation, parseTree } = jsoncParser();
  const parent = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, change.path.slice(0, -1));
  const parentIndent = indentAt(text, parent?.offset ?? edit.offset);
  const indent = parentIndent + layout.unit;
  const property = `${JSON.stringify(String(key))}: ${render(change.value, indent, layout)}`;
  if (edit.content.startsWith(',')) return { ...edit, content: `,${layout.eol}${indent}${property}` };
  if (edit.content.endsWith(',')) return { ...edit, content: `${layout.eol}${indent}${property},` };
  return { ...edit, content: `${layout.eol}${indent}${property}${layout.eol}${parentIndent}` };
}
