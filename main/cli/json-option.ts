import { UsageError } from './output';

/** Parses a `--flag JSON` value, naming the flag and the fix when it is not valid JSON. */
export function parseJsonOption(flag: string, value: unknown, expect: 'object' | 'any' = 'object'): unknown {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError(`--${flag} needs a JSON value.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new UsageError(`--${flag} is not valid JSON (${(error as Error).message}). Example: --${flag} '{"key":"value"}'`);
  }
  if (expect === 'object' && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
    throw new UsageError(`--${flag} must be a JSON object, e.g. --${flag} '{"key":"value"}'.`);
  }
  return parsed;
}

/** Parses a positive integer flag (milliseconds, seconds, ports). */
export function parseIntOption(flag: string, value: unknown, { min = 0 }: { min?: number } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${flag} must be a whole number${min > 0 ? ` ≥ ${min}` : ''}, got "${String(value)}".`);
  return n;
}
