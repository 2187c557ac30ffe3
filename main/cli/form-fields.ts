/**
 * The fields a form elicitation asks for, as lines a person can write `--answer` from: name, type,
 * required or not, the choices (with their titles), the default, and the title. Printed when the
 * CLI declines a form for want of `--answer`, so the second run can answer it (#31 item 18).
 */

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const quoted = (value: unknown) => JSON.stringify(value);

/** `"hero-1" (Superman)` for titled choices (oneOf/anyOf of consts, or legacy enumNames), `"a"` otherwise. */
function choicesOf(schema: Schema): string[] | undefined {
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (titled?.every((option) => isSchema(option) && 'const' in option)) {
    return (titled as Schema[]).map((option) => `${quoted(option.const)}${typeof option.title === 'string' ? ` (${option.title})` : ''}`);
  }
  if (!Array.isArray(schema.enum)) return undefined;
  const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  return schema.enum.map((value, i) => `${quoted(value)}${typeof names[i] === 'string' ? ` (${names[i] as string})` : ''}`);
}

function describeField(schema: Schema, required: boolean): string {
  const parts: string[] = [];
  const items = isSchema(schema.items) ? schema.items : undefined;
  const itemChoices = items ? choicesOf(items) : undefined;
  const choices = choicesOf(schema);
  if (schema.type === 'array' && itemChoices) parts.push(`list of ${itemChoices.join(', ')}`);
  else parts.push(typeof schema.type === 'string' ? schema.type : 'any');
  if (typeof schema.format === 'string') parts[0] += ` (${schema.format})`;
  if (required) parts.push('required');
  if (choices) parts.push(`one of ${choices.join(', ')}`);
  if (typeof schema.minimum === 'number' || typeof schema.maximum === 'number') parts.push(`${schema.minimum ?? '…'} to ${schema.maximum ?? '…'}`);
  if ('default' in schema) parts.push(`default ${quoted(schema.default)}`);
  const title = typeof schema.title === 'string' ? schema.title : typeof schema.description === 'string' ? schema.description : undefined;
  return `${parts.join(', ')}${title ? ` — ${title}` : ''}`;
}

/** A placeholder value of the right type for the example `--answer`. */
function exampleOf(schema: Schema): unknown {
  const choices = Array.isArray(schema.enum) ? schema.enum : undefined;
  if (choices?.length) return choices[0];
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (isSchema(titled?.[0]) && 'const' in titled[0]) return titled[0].const;
  switch (schema.type) {
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      return '…';
  }
}

/** The lines to print: one per field, then an example `--answer` with the required fields. Empty for a schema without fields. */
export function describeFormFields(requestedSchema: unknown): string[] {
  if (!isSchema(requestedSchema) || !isSchema(requestedSchema.properties)) return [];
  const properties = Object.entries(requestedSchema.properties).filter((entry): entry is [string, Schema] => isSchema(entry[1]));
  if (properties.length === 0) return [];
  const required = new Set(Array.isArray(requestedSchema.required) ? requestedSchema.required : []);
  const width = Math.max(...properties.map(([name]) => name.length));
  const lines = ['  it asks for:', ...properties.map(([name, schema]) => `    ${name.padEnd(width)}  ${describeField(schema, required.has(name))}`)];
  const wanted = properties.filter(([name]) => required.has(name));
  const example = Object.fromEntries((wanted.length > 0 ? wanted : properties.slice(0, 1)).map(([name, schema]) => [name, exampleOf(schema)]));
  lines.push(`  answer with: --answer '${JSON.stringify(example).replace(/'/g, "'\\''")}'`);
  return lines;
}
