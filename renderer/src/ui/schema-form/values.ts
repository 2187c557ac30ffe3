import type { FieldSpec, FormSchema } from './schema';

/** A JSON field's text that does not parse yet: kept so the person can finish typing, reported by validate. */
export class JsonDraft {
  constructor(readonly text: string) {}
}

/** What the form holds: one entry per filled field; a missing key is an empty field. */
export type FormValues = Readonly<Record<string, unknown>>;

/** The schema's defaults, prefilled. */
export function defaultValues(schema: FormSchema): FormValues {
  const values: Record<string, unknown> = {};
  for (const field of schema.fields) {
    if (field.default !== undefined) values[field.name] = Array.isArray(field.default) ? [...(field.default as unknown[])] : field.default;
  }
  return values;
}

/** Text typed into a number field as the value to validate: a number when it reads as one, else the text. */
export function numberFromText(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : trimmed;
}

/** Text typed into a JSON field: the parsed value, or a draft that validate reports. */
export function jsonFromText(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return new JsonDraft(text);
  }
}

/** Whether a field counts as left empty (for "required" and for leaving it out of the submission). */
export function isEmpty(field: FieldSpec, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (field.kind === 'string' && value === '') return true;
  if (field.kind === 'multi' && Array.isArray(value) && value.length === 0) return true;
  return false;
}

/**
 * The object to send: empty optional fields are left out (a server reads "absent", not ""), a
 * boolean left untouched is sent as false only when it is required.
 */
export function submission(schema: FormSchema, values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of schema.fields) {
    const value = values[field.name];
    if (field.kind === 'boolean' && value === undefined) {
      if (field.required) out[field.name] = false;
      continue;
    }
    if (isEmpty(field, value)) continue;
    out[field.name] = value;
  }
  return out;
}
