/**
 * A value as indented JSON for a person to read; what JSON cannot hold (a cycle, a BigInt, a bare
 * function) falls back to its String form rather than failing the view that shows it.
 */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value); // not representable as JSON (see above): its String form is what can be shown
  }
}
