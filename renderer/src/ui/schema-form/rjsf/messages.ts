/**
 * What a failed JSON Schema keyword means, in one sentence a person can act on (the same wording
 * the form used before it was built on RJSF, so dialogs and tests read the same).
 */

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function isEnumArray(schema: Record<string, unknown>): boolean {
  const items = schema.items;
  return typeof items === 'object' && items !== null && (Array.isArray((items as Record<string, unknown>).enum) || Array.isArray((items as Record<string, unknown>).oneOf) || Array.isArray((items as Record<string, unknown>).anyOf));
}

function typeMessage(expected: unknown): string {
  const types = (Array.isArray(expected) ? expected : [expected]).filter((t) => t !== 'null');
  if (types.length !== 1) return 'Not the kind of value expected here.';
  switch (types[0]) {
    case 'integer':
      return 'Must be a whole number.';
    case 'number':
      return 'Must be a number.';
    case 'string':
      return 'Must be text.';
    case 'boolean':
      return 'Must be on or off.';
    case 'array':
      return 'Must be a list.';
    case 'object':
      return 'Must be a group of fields.';
    default:
      return 'Not the kind of value expected here.';
  }
}

const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  email: 'Must be an email address, like name@example.com.',
  uri: 'Must be a full address with its scheme, like https://example.com/page.',
  date: 'Must be a date as YYYY-MM-DD, like 2026-07-28.',
  'date-time': 'Must be a date and time with a time zone, like 2026-07-28T14:30:00Z.',
  time: 'Must be a time as HH:MM:SS, like 14:30:00.',
};

/**
 * @param keyword the keyword that failed
 * @param parent the schema object holding that keyword (undefined when it could not be found)
 * @param value the value that failed it
 * @param fallback the validator's own sentence
 */
export function messageFor(keyword: string, parent: unknown, value: unknown, fallback: string): string {
  const schema = (typeof parent === 'object' && parent !== null ? parent : {}) as Record<string, unknown>;
  const limit = schema[keyword];
  const n = typeof limit === 'number' ? limit : undefined;
  const multi = isEnumArray(schema);
  switch (keyword) {
    case 'required':
      return 'Required.';
    case 'type':
      return typeMessage(limit);
    case 'minimum':
      return `Must be at least ${String(limit)}.`;
    case 'maximum':
      return `Must be at most ${String(limit)}.`;
    case 'exclusiveMinimum':
      return `Must be more than ${String(limit)}.`;
    case 'exclusiveMaximum':
      return `Must be less than ${String(limit)}.`;
    case 'multipleOf':
      return `Must be a multiple of ${String(limit)}.`;
    case 'minLength':
    case 'maxLength': {
      // Characters as a person counts them (code points), like JSON Schema does.
      const length = typeof value === 'string' ? [...value].length : 0;
      if (n === undefined) return fallback;
      return `${keyword === 'minLength' ? 'At least' : 'At most'} ${plural(n, 'character')} (now ${length}).`;
    }
    case 'minItems':
      if (n === undefined) return fallback;
      if (multi) return n === 1 ? 'Required: pick at least one option.' : `Pick at least ${n}.`;
      return `Add at least ${plural(n, 'item')}.`;
    case 'maxItems':
      if (n === undefined) return fallback;
      return multi ? `Pick at most ${n}.` : `At most ${plural(n, 'item')}.`;
    case 'uniqueItems':
      return 'Each item must be different.';
    case 'enum':
    case 'const':
    case 'oneOf':
    case 'anyOf':
      return isChoiceList(schema, keyword) ? 'Pick one of the options.' : keyword === 'oneOf' ? 'Must match exactly one of the choices.' : keyword === 'anyOf' ? 'Must match one of the choices.' : 'Pick one of the options.';
    case 'format':
      return FORMAT_MESSAGES[String(limit)] ?? `Must be in the ${String(limit)} format.`;
    case 'minProperties':
      return n === undefined ? fallback : `Fill in at least ${plural(n, 'field')}.`;
    case 'maxProperties':
      return n === undefined ? fallback : `Fill in at most ${plural(n, 'field')}.`;
    default:
      return fallback;
  }
}

/** A union whose alternatives are all `{const}`: a titled enum, shown as options. */
function isChoiceList(schema: Record<string, unknown>, keyword: string): boolean {
  if (keyword === 'enum' || keyword === 'const') return true;
  const alternatives = schema[keyword];
  return Array.isArray(alternatives) && alternatives.every((a) => typeof a === 'object' && a !== null && 'const' in a);
}
