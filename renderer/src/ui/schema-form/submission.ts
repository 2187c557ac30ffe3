import type { FormSchema } from './schema';

/** What the form holds: one entry per filled field; a missing key is an empty field. */
export type FormValues = Readonly<Record<string, unknown>>;

/** Undefined entries dropped all the way down (what JSON would send anyway). */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : compact(v)));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) if (child !== undefined) out[key] = compact(child);
  return out;
}

/**
 * The object to send: empty optional fields are left out (a server reads "absent", not ""), a
 * boolean left untouched is sent as false only when it is required.
 */
export function submission(schema: FormSchema, values: FormValues): Record<string, unknown> {
  const out = compact(values) as Record<string, unknown>;
  for (const field of schema.fields) {
    const value = out[field.name];
    if (field.kind === 'boolean' && value === undefined && field.required) out[field.name] = false;
    const empty = value === '' || value === null || (field.kind === 'multi' && Array.isArray(value) && value.length === 0);
    if (empty && !field.required) delete out[field.name];
  }
  return out;
}
