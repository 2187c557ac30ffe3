/**
 * The rug-pull diff: a tool's definition as the person approved it against what the server sends
 * now, field by field, each changed field as lines kept / removed / added. Pure.
 */

export type DiffLineKind = 'same' | 'removed' | 'added';

export interface DiffLine {
  readonly kind: DiffLineKind;
  readonly text: string;
}

export interface FieldDiff {
  readonly field: string;
  readonly changed: boolean;
  /** Absent before (added) or absent now (removed), for the heading. */
  readonly presence: 'both' | 'added' | 'removed';
  readonly lines: readonly DiffLine[];
}

/** The order a person reads a definition in; any other key follows. */
const FIELD_ORDER = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'];
/** Above this many line pairs the diff is shown as "all removed, all added" (the dialog must not hang). */
const MAX_CELLS = 250_000;

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A field's value as lines: text as written, anything else as indented JSON. */
export function linesOf(value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return value.split(/\r?\n/);
  return (JSON.stringify(value, null, 2) ?? String(value)).split('\n');
}

/** Longest-common-subsequence line diff. */
export function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] {
  const n = before.length;
  const m = after.length;
  if (n * m > MAX_CELLS) {
    return [...before.map((text) => ({ kind: 'removed' as const, text })), ...after.map((text) => ({ kind: 'added' as const, text }))];
  }
  // lcs[i][j]: length of the LCS of before[i..] and after[j..]
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i]![j] = before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) {
      out.push({ kind: 'same', text: before[i]! });
      i += 1;
      j += 1;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      out.push({ kind: 'removed', text: before[i]! });
      i += 1;
    } else {
      out.push({ kind: 'added', text: after[j]! });
      j += 1;
    }
  }
  while (i < n) out.push({ kind: 'removed', text: before[i++]! });
  while (j < m) out.push({ kind: 'added', text: after[j++]! });
  return out;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Every field of either definition, in reading order. A field counts as changed when the Host said
 * so (`changed`) or when its canonical JSON differs (so the dialog never hides a change).
 */
export function diffDefinitions(before: unknown, after: unknown, changed: readonly string[] = []): FieldDiff[] {
  const a = asRecord(before);
  const b = asRecord(after);
  const keys = [...new Set([...FIELD_ORDER.filter((k) => k in a || k in b), ...Object.keys(a), ...Object.keys(b)])];
  return keys.map((field) => {
    const inBefore = a[field] !== undefined;
    const inAfter = b[field] !== undefined;
    const differs = changed.includes(field) || canonical(a[field]) !== canonical(b[field]);
    return {
      field,
      changed: differs,
      presence: inBefore && inAfter ? 'both' : inAfter ? 'added' : 'removed',
      lines: differs ? diffLines(linesOf(a[field]), linesOf(b[field])) : linesOf(b[field]).map((text) => ({ kind: 'same' as const, text })),
    };
  });
}
