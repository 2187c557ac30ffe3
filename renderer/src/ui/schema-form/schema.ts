/**
 * Reads a JSON Schema's top-level properties into field descriptions: what the form state needs
 * without the form's code (which loads on first use) — whether there is anything to fill in, each
 * field's label and kind (for the "asks for a secret" warning and for leaving empty optional
 * fields out of what is sent). The form itself is drawn by RJSF (rjsf/). Schemas come from
 * servers: untrusted data, read defensively, never evaluated.
 */

export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

export interface EnumOption {
  /** The value sent back: what the schema's enum/const holds (string, number or boolean). */
  readonly value: string | number | boolean;
  /** What the person reads: the titled enum's title, else the value itself. */
  readonly label: string;
}

interface FieldBase {
  /** The property name (the key in the submitted object). */
  readonly name: string;
  /** The schema's title, else the property name. */
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
}

export type FieldSpec =
  | (FieldBase & {
      readonly kind: 'string';
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly format?: StringFormat;
      readonly default?: string;
    })
  | (FieldBase & {
      readonly kind: 'number' | 'integer';
      readonly minimum?: number;
      readonly maximum?: number;
      readonly exclusiveMinimum?: number;
      readonly exclusiveMaximum?: number;
      readonly default?: number;
    })
  | (FieldBase & { readonly kind: 'boolean'; readonly default?: boolean })
  | (FieldBase & { readonly kind: 'enum'; readonly options: readonly EnumOption[]; readonly default?: EnumOption['value'] })
  | (FieldBase & {
      readonly kind: 'multi';
      readonly options: readonly EnumOption[];
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly default?: ReadonlyArray<EnumOption['value']>;
    })
  | (FieldBase & {
      readonly kind: 'json';
      /** What JSON the field expects, for the hint ("an object", "a list"…). */
      readonly expects: string;
      readonly default?: unknown;
    });

export interface FormSchema {
  readonly fields: readonly FieldSpec[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const count = (value: unknown): number | undefined => {
  const n = num(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
};
const FORMATS = new Set<string>(['email', 'uri', 'date', 'date-time']);

const cache = new WeakMap<object, FormSchema>();

/** The form for an object schema. Anything but an object schema yields no fields. Cached per schema object. */
export function parseFormSchema(schema: unknown): FormSchema {
  if (!isObject(schema)) return { fields: [] };
  const cached = cache.get(schema);
  if (cached) return cached;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields = Object.entries(properties).map(([name, property]) => parseField(name, property, required.has(name)));
  const parsed = { fields };
  cache.set(schema, parsed);
  return parsed;
}

function parseField(name: string, raw: unknown, required: boolean): FieldSpec {
  const property = isObject(raw) ? raw : {};
  const base: FieldBase = {
    name,
    label: str(property.title) ?? name,
    required,
    ...(str(property.description) ? { description: str(property.description)! } : {}),
  };
  const type = primaryType(property.type);

  const options = enumOptions(property);
  if (options && (type === undefined || type === 'string' || type === 'number' || type === 'integer' || type === 'boolean')) {
    const fallback = options.find((o) => o.value === property.default)?.value;
    return { ...base, kind: 'enum', options, ...(fallback !== undefined ? { default: fallback } : {}) };
  }

  switch (type) {
    case 'string': {
      const format = typeof property.format === 'string' && FORMATS.has(property.format) ? (property.format as StringFormat) : undefined;
      return {
        ...base,
        kind: 'string',
        ...(count(property.minLength) !== undefined ? { minLength: count(property.minLength)! } : {}),
        ...(count(property.maxLength) !== undefined ? { maxLength: count(property.maxLength)! } : {}),
        ...(format ? { format } : {}),
        ...(typeof property.default === 'string' ? { default: property.default } : {}),
      };
    }
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: type,
        ...(num(property.minimum) !== undefined ? { minimum: num(property.minimum)! } : {}),
        ...(num(property.maximum) !== undefined ? { maximum: num(property.maximum)! } : {}),
        ...(num(property.exclusiveMinimum) !== undefined ? { exclusiveMinimum: num(property.exclusiveMinimum)! } : {}),
        ...(num(property.exclusiveMaximum) !== undefined ? { exclusiveMaximum: num(property.exclusiveMaximum)! } : {}),
        ...(num(property.default) !== undefined ? { default: num(property.default)! } : {}),
      };
    case 'boolean':
      return { ...base, kind: 'boolean', ...(typeof property.default === 'boolean' ? { default: property.default } : {}) };
    case 'array': {
      const itemOptions = isObject(property.items) ? enumOptions(property.items) : undefined;
      if (itemOptions) {
        const defaults = Array.isArray(property.default)
          ? property.default.filter((d) => itemOptions.some((o) => o.value === d)) as Array<EnumOption['value']>
          : undefined;
        return {
          ...base,
          kind: 'multi',
          options: itemOptions,
          ...(count(property.minItems) !== undefined ? { minItems: count(property.minItems)! } : {}),
          ...(count(property.maxItems) !== undefined ? { maxItems: count(property.maxItems)! } : {}),
          ...(defaults ? { default: defaults } : {}),
        };
      }
      return { ...base, kind: 'json', expects: 'a list, e.g. ["a", "b"]', ...('default' in property ? { default: property.default } : {}) };
    }
    case 'object':
      return { ...base, kind: 'json', expects: 'an object, e.g. {"key": "value"}', ...('default' in property ? { default: property.default } : {}) };
    default:
      return { ...base, kind: 'json', expects: 'any JSON value', ...('default' in property ? { default: property.default } : {}) };
  }
}

/** `"type": ["string", "null"]` is a string that may be left out. */
function primaryType(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const real = type.filter((t): t is string => typeof t === 'string' && t !== 'null');
    return real.length === 1 ? real[0] : real.length > 1 ? 'union' : undefined;
  }
  return undefined;
}

/** Plain `enum`, titled `oneOf`/`anyOf` of `{const, title}`, and the legacy `enumNames`. */
function enumOptions(schema: Json): EnumOption[] | undefined {
  const isValue = (v: unknown): v is EnumOption['value'] => typeof v === 'string' || typeof v === 'boolean' || num(v) !== undefined;
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(isValue)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({ value, label: str(names[i]) ?? String(value) }));
  }
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (titled && titled.length > 0 && titled.every((o) => isObject(o) && isValue(o.const))) {
    return (titled as Json[]).map((o) => ({ value: o.const as EnumOption['value'], label: str(o.title) ?? String(o.const) }));
  }
  return undefined;
}

/**
 * Fields that look like they ask for a password, token or key. MCP forbids asking for secrets in
 * form-mode elicitation; a dialog can warn about these.
 */
export function sensitiveFields(schema: FormSchema): FieldSpec[] {
  const SENSITIVE = /password|passphrase|passwd|secret|token|api[-_ ]?key|private[-_ ]?key|credential|\bpin\b|\bcvv\b/i;
  return schema.fields.filter((f) => (f.kind === 'string' || f.kind === 'json') && SENSITIVE.test(`${f.name} ${f.label} ${f.description ?? ''}`));
}
