import { UsageError } from './output';

/** Parses a `--flag JSON` object, naming the flag and the fix when it is not one. */
export function parseJsonOption(flag: string, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError(`--${flag} needs a JSON value.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new UsageError(`--${flag} is not valid JSON (${(error as Error).message}). Example: --${flag} '{"key":"value"}'`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--${flag} must be a JSON object, e.g. --${flag} '{"key":"value"}'.`);
  }
  return parsed as Record<string, unknown>;
}

/** Parses a positive integer flag (milliseconds, seconds, ports). */
export function parseIntOption(flag: string, value: unknown, { min = 0, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : min > 0 ? ` ≥ ${min}` : '';
    throw new UsageError(`--${flag} must be a whole number${range}, got "${String(value)}".`);
  }
  return n;
}
