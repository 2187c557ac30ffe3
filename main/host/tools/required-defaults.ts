/**
 * A property a schema lists as `required` and also gives a `default` counts as present when it is
 * missing. zod's `.default()` produces exactly that shape (`@playwright/mcp`'s `scale` on
 * browser_take_screenshot), and such servers accept a call without the property: they fill it in.
 * Harbor's local checks (the argument check before a call, code mode's typed API) must therefore
 * not refuse what the server accepts. The argument is left out, not filled in: the server's own
 * default is the one that applies, and what is sent is what the caller wrote.
 */

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is one subschema. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'] as const;
/** Keywords whose value is a list of subschemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

/**
 * `schema` with every required-and-defaulted property made optional, at any depth. The same object
 * comes back when nothing needed changing (callers cache by identity), and the input is never changed.
 */
export function withDefaultsOptional(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > 64) return schema;
  let copy: Schema | undefined;
  const set = (key: string, value: unknown) => {
    copy ??= { ...schema };
    copy[key] = value;
  };
  for (const key of ONE) {
    const child = schema[key];
    const changed = withDefaultsOptional(child, depth + 1);
    if (changed !== child) set(key, changed);
  }
  for (const key of LIST) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const changed = list.map((child) => withDefaultsOptional(child, depth + 1));
    if (changed.some((child, i) => child !== list[i])) set(key, changed);
  }
  for (const key of MAP) {
    const map = schema[key];
    if (!isSchema(map)) continue;
    const entries = Object.entries(map).map(([name, child]) => [name, withDefaultsOptional(child, depth + 1)] as const);
    if (entries.some(([name, child]) => child !== map[name])) set(key, Object.fromEntries(entries));
  }
  const properties = isSchema(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    const required = schema.required.filter((name) => !(typeof name === 'string' && isSchema(properties[name]) && 'default' in properties[name]));
    if (required.length !== schema.required.length) set('required', required);
  }
  return copy ?? schema;
}
