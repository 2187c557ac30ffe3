import type { z } from 'zod';

/**
 * zod's default messages are written for developers ("Invalid input: expected string, received
 * number", "Invalid key in record"). A person fixing their config file reads these, so the registry
 * parses with this map instead: short, plain, naming what was found. Messages set on a schema
 * itself (e.g. "must be an http(s) URL") still win over this map.
 */
export const registryErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `expected ${describeExpected(issue.expected)}, got ${describeValue(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      if (issue.origin === 'number' || issue.origin === 'int') {
        return issue.minimum === 0 && !issue.inclusive ? 'must be greater than 0' : `must be at least ${String(issue.minimum)}`;
      }
      return undefined;
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${quoteShort(issue.input)}`;
    case 'invalid_key':
      if (issue.origin === 'record' && issue.input === '') return 'a name must not be empty';
      // A name schema's own explanation (schema.ts serverNameProblem) says more than "invalid".
      return issue.issues.find((inner) => inner.code === 'custom')?.message ?? `invalid name ${JSON.stringify(issue.input)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    default:
      return undefined;
  }
};

function describeExpected(expected: string): string {
  switch (expected) {
    case 'record':
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'int':
      return 'a whole number';
    default:
      return expected;
  }
}

/**
 * "number", "an array", "null"… — the kind of value, never a string's content: a misplaced token
 * (`"headers": "Bearer sk-…"`) must not end up in an error message or a log.
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'number' : `number ${String(value)}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

/** For enum-like fields only ("transport": "ws"): short words are quoted, anything longer is not. */
function quoteShort(value: unknown): string {
  return typeof value === 'string' && value.length <= 20 && /^[\w.+-]*$/.test(value) ? JSON.stringify(value) : describeValue(value);
}
