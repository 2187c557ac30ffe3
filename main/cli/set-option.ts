import { UsageError } from './output';

/** How a usage error names the option's form, with an example of it. */
export interface SetOptionForm {
  readonly form: string;
  readonly example: string;
}

const SETTING: SetOptionForm = { form: 'KEY=VALUE', example: 'api_key=abc123' };

/**
 * `--set KEY=VALUE`, repeatable: the answers to a bundle's settings or a gallery server's inputs.
 * A key given twice collects both values (a setting that takes several, like folders). The value
 * is everything after the first "=".
 */
export function parseSetOptions(value: unknown, form: SetOptionForm = SETTING): Record<string, string | string[]> {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const values: Record<string, string | string[]> = {};
  for (const item of list) {
    const text = String(item);
    const at = text.indexOf('=');
    if (at <= 0) throw new UsageError(`--set needs ${form.form}, got "${text}". Example: --set ${form.example}`);
    const key = text.slice(0, at).trim();
    const given = text.slice(at + 1);
    const before = values[key];
    values[key] = before === undefined ? given : [...(Array.isArray(before) ? before : [before]), given];
  }
  return values;
}

/** `--set` where each key takes one value: a key given twice is a usage error, not "the last one wins". */
export function parseSingleSetOptions(value: unknown, form: SetOptionForm = SETTING): Record<string, string> {
  const values = parseSetOptions(value, form);
  for (const [key, given] of Object.entries(values)) {
    if (Array.isArray(given)) throw new UsageError(`--set ${key} is given ${given.length} times: give it one value.`);
  }
  return values as Record<string, string>;
}

/** `--allow-env NAME[,NAME…]`, repeatable: the variables that load code the person allowed, by name. */
export function parseAllowEnv(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const names = (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(',')).map((name) => name.trim());
  const bad = names.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  if (bad !== undefined) throw new UsageError(`--allow-env takes environment variable names, comma-separated, got "${bad}". Example: --allow-env NODE_OPTIONS,LD_PRELOAD`);
  return names;
}
