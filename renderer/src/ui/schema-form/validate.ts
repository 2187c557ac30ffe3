import { parseFormSchema, type FieldSpec, type FormSchema } from './schema';
import { JsonDraft, isEmpty, type FormValues } from './values';

/** One sentence per field that is not right yet, keyed by property name. Empty when the form is valid. */
export type ValidationErrors = Readonly<Record<string, string>>;

/**
 * Checks values against a schema (the raw JSON Schema, or one parsed by parseFormSchema). Pure:
 * the form shows these inline; callers may also run it before sending anything.
 */
export function validate(schema: unknown, values: FormValues): ValidationErrors {
  const form = isFormSchema(schema) ? schema : parseFormSchema(schema);
  const errors: Record<string, string> = {};
  for (const field of form.fields) {
    const message = validateField(field, values[field.name]);
    if (message) errors[field.name] = message;
  }
  return errors;
}

function isFormSchema(schema: unknown): schema is FormSchema {
  return typeof schema === 'object' && schema !== null && Array.isArray((schema as { fields?: unknown }).fields) && !('type' in schema);
}

/** The problem with one field's value, or undefined when it is fine. */
export function validateField(field: FieldSpec, value: unknown): string | undefined {
  if (isEmpty(field, value)) {
    if (!field.required) return undefined;
    if (field.kind === 'multi') return 'Required: pick at least one option.';
    if (field.kind === 'enum') return 'Required: pick an option.';
    return 'Required.';
  }
  switch (field.kind) {
    case 'string':
      return validateString(field, value);
    case 'number':
    case 'integer':
      return validateNumber(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Must be on or off.';
    case 'enum':
      return field.options.some((o) => o.value === value) ? undefined : 'Pick one of the options.';
    case 'multi': {
      if (!Array.isArray(value) || !value.every((v) => field.options.some((o) => o.value === v))) return 'Pick from the options.';
      if (field.minItems !== undefined && value.length < field.minItems) return `Pick at least ${field.minItems}.`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `Pick at most ${field.maxItems}.`;
      return undefined;
    }
    case 'json':
      return value instanceof JsonDraft ? `Not valid JSON yet: expected ${field.expects}.` : undefined;
  }
}

type StringField = Extract<FieldSpec, { kind: 'string' }>;
type NumberField = Extract<FieldSpec, { kind: 'number' | 'integer' }>;

function validateString(field: StringField, value: unknown): string | undefined {
  if (typeof value !== 'string') return 'Must be text.';
  // Characters as a person counts them (code points), like JSON Schema's minLength/maxLength.
  const length = [...value].length;
  if (field.minLength !== undefined && length < field.minLength) {
    return `At least ${field.minLength} character${field.minLength === 1 ? '' : 's'} (now ${length}).`;
  }
  if (field.maxLength !== undefined && length > field.maxLength) {
    return `At most ${field.maxLength} character${field.maxLength === 1 ? '' : 's'} (now ${length}).`;
  }
  switch (field.format) {
    case 'email':
      return isEmail(value) ? undefined : 'Must be an email address, like name@example.com.';
    case 'uri':
      return isUri(value) ? undefined : 'Must be a full address with its scheme, like https://example.com/page.';
    case 'date':
      return isDate(value) ? undefined : 'Must be a date as YYYY-MM-DD, like 2026-07-28.';
    case 'date-time':
      return isDateTime(value) ? undefined : 'Must be a date and time with a time zone, like 2026-07-28T14:30:00Z.';
    default:
      return undefined;
  }
}

function validateNumber(field: NumberField, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return field.kind === 'integer' ? 'Must be a whole number.' : 'Must be a number.';
  if (field.kind === 'integer' && !Number.isInteger(value)) return 'Must be a whole number.';
  if (field.minimum !== undefined && value < field.minimum) return `Must be at least ${field.minimum}.`;
  if (field.maximum !== undefined && value > field.maximum) return `Must be at most ${field.maximum}.`;
  if (field.exclusiveMinimum !== undefined && value <= field.exclusiveMinimum) return `Must be more than ${field.exclusiveMinimum}.`;
  if (field.exclusiveMaximum !== undefined && value >= field.exclusiveMaximum) return `Must be less than ${field.exclusiveMaximum}.`;
  return undefined;
}

function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

function isUri(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) || /\s/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isDateTime(value: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(value);
  if (!match || !isDate(match[1]!)) return false;
  return Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 61;
}
