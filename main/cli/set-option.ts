import { UsageError } from './output';

/**
 * `--set KEY=VALUE`, repeatable: the answers to a bundle's settings or a gallery server's inputs.
 * A key given twice collects both values (a setting that takes several, like folders).
 */
export function parseSetOptions(value: unknown): Record<string, string | string[]> {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const values: Record<string, string | string[]> = {};
  for (const item of list) {
    const text = String(item);
    const at = text.indexOf('=');
    if (at <= 0) throw new UsageError(`--set needs KEY=VALUE, got "${text}". Example: --set api_key=abc123`);
    const key = text.slice(0, at).trim();
    const given = text.slice(at + 1);
    const before = values[key];
    values[key] = before === undefined ? given : [...(Array.isArray(before) ? before : [before]), given];
  }
  return values;
}
