import type { ErrorObject } from 'ajv';

/**
 * A refusal in words a person can act on: Ajv's errors for one value, one problem per place
 * ("name must be a string (got 5)"), for the tool-call, elicitation and task checks of
 * json-schema.ts.
 */

/** One thing wrong with a value, at a path a person can read ("name", "items[2].id"; "" is the value itself). */
export interface SchemaProblem {
  readonly path: string;
  readonly message: string;
}

/** `/items/2/id` → `items[2].id` */
function readablePath(pointer: string, child?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

const FORMAT_NAMES: Record<string, string> = {
  email: 'an email address',
  uri: 'a URI (with its scheme, e.g. https://…)',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time with a zone (e.g. 2026-01-31T09:00:00Z)',
  time: 'a time (HH:MM:SS with a zone)',
};

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function messageOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const types = String(p.type).split(',').map(article).join(' or ');
      return `must be ${types} (got ${shown(error.data)})`;
    }
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not expected here';
    case 'minimum':
      return `must be at least ${String(p.limit)} (got ${shown(error.data)})`;
    case 'maximum':
      return `must be at most ${String(p.limit)} (got ${shown(error.data)})`;
    case 'exclusiveMinimum':
      return `must be more than ${String(p.limit)} (got ${shown(error.data)})`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)} (got ${shown(error.data)})`;
    case 'minLength':
      return `must be at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'} long`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long`;
    case 'minItems':
      return `must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map(shown).join(', ')} (got ${shown(error.data)})`;
    case 'const':
      return `must be ${shown(p.allowedValue)} (got ${shown(error.data)})`;
    case 'format':
      return `must be ${FORMAT_NAMES[String(p.format)] ?? `in the format "${String(p.format)}"`} (got ${shown(error.data)})`;
    case 'pattern':
      return `must match the pattern ${String(p.pattern)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'uniqueItems':
      return 'must not repeat an item';
    default:
      return error.message ?? `fails "${error.keyword}"`;
  }
}

const COMBINATORS = new Set(['oneOf', 'anyOf', 'if', 'not']);

/**
 * One problem per place, in words: a choice among constants (`oneOf` of `{const}`) becomes "must
 * be one of …"; the combinator's own summary is dropped when its branches said something.
 */
export function describeErrors(errors: readonly ErrorObject[]): SchemaProblem[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const child = error.keyword === 'required' ? String((error.params as { missingProperty: unknown }).missingProperty)
      : error.keyword === 'additionalProperties' ? String((error.params as { additionalProperty: unknown }).additionalProperty)
      : error.keyword === 'unevaluatedProperties' ? String((error.params as { unevaluatedProperty: unknown }).unevaluatedProperty)
      : undefined;
    const path = readablePath(error.instancePath, child);
    byPath.set(path, [...(byPath.get(path) ?? []), error]);
  }
  const problems: SchemaProblem[] = [];
  for (const [path, group] of byPath) {
    const constants = group.filter((e) => e.keyword === 'const');
    if (constants.length > 1) {
      const allowed = constants.map((e) => shown((e.params as { allowedValue: unknown }).allowedValue));
      problems.push({ path, message: `must be one of ${allowed.join(', ')} (got ${shown(constants[0]!.data)})` });
      continue;
    }
    const specific = group.filter((e) => !COMBINATORS.has(e.keyword));
    const seen = new Set<string>();
    for (const error of specific.length > 0 ? specific : group) {
      const message = messageOf(error);
      if (seen.has(message)) continue;
      seen.add(message);
      problems.push({ path, message });
    }
  }
  return problems;
}

/** "name must be a string (got 5); integer must be at most 100 (got 1000)" */
export function describeProblems(problems: readonly SchemaProblem[], subject = 'the value'): string {
  return problems.map((p) => `${p.path ? `"${p.path}"` : subject} ${p.message}`).join('; ');
}
