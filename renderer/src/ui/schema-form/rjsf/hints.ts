import { descriptionId, errorId, type RJSFSchema } from '@rjsf/utils';
import { isFreeForm, jsonExpects } from './free-form';

/**
 * The help under a field: the server's description, then the constraints in words, so nobody has
 * to fail a submit to learn them.
 */
export function hintText(schema: RJSFSchema): string | undefined {
  const parts: string[] = [];
  if (typeof schema.description === 'string' && schema.description.trim()) parts.push(schema.description);
  const constraints = isFreeForm(schema) ? jsonExpects(schema) : constraintText(schema);
  if (constraints) parts.push(constraints);
  return parts.length ? parts.join(' ') : undefined;
}

function constraintText(schema: RJSFSchema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'string' && !schema.enum) {
    const { minLength: min, maxLength: max } = schema;
    const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;
    if (min !== undefined && max !== undefined) return `${min}–${characters(max)}.`;
    if (min !== undefined) return `At least ${characters(min)}.`;
    if (max !== undefined) return `At most ${characters(max)}.`;
    if (schema.format === 'date-time') return 'Date and time with a time zone.';
    return undefined;
  }
  if ((type === 'number' || type === 'integer') && !schema.enum) {
    const low = schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined);
    const high = schema.maximum ?? (typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined);
    const what = type === 'integer' ? 'A whole number' : 'A number';
    if (low !== undefined && high !== undefined) return `${what} from ${low} to ${high}.`;
    if (low !== undefined) return `${what}, at least ${low}.`;
    if (high !== undefined) return `${what}, at most ${high}.`;
    return type === 'integer' ? 'A whole number.' : undefined;
  }
  if (type === 'array' && schema.uniqueItems) {
    const { minItems: min, maxItems: max } = schema;
    if (min !== undefined && max !== undefined) return `Pick ${min}–${max}.`;
    if (min !== undefined) return `Pick at least ${min}.`;
    if (max !== undefined) return `Pick at most ${max}.`;
  }
  return undefined;
}

/** aria-describedby for an input: only the hint and error that are really on the page. */
export function describedBy(id: string, schema: RJSFSchema, errors: readonly string[] | undefined): string | undefined {
  const ids = [hintText(schema) ? descriptionId(id) : undefined, errors?.length ? errorId(id) : undefined].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
