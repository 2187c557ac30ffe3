import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { isFreeForm } from './free-form';

/**
 * Turns a server's schema into what the form renders: a copy without `pattern` (a server's regex
 * could hang the page: the Host checks patterns on a linear-time engine, the form does not run
 * them), always an object at the root, and the widget choices Harbor makes (radios for a few
 * options, checkboxes for a list of options, no submit button — the dialog or panel owns it).
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Radios up to this many options; a select above. */
const MAX_RADIOS = 4;

function stripPatterns(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripPatterns);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if ((key === 'pattern' && typeof child === 'string') || key === 'patternProperties') continue;
    out[key] = stripPatterns(child);
  }
  return out;
}

function optionCount(schema: Json): number | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.length;
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (titled && titled.length > 0 && titled.every((o) => isObject(o) && 'const' in o)) return titled.length;
  return undefined;
}

/** A copy of a schema with `adjust` applied to every object in it, innermost first. */
function mapObjects(value: unknown, adjust: (node: Json) => void): unknown {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, adjust));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) out[key] = mapObjects(child, adjust);
  adjust(out);
  return out;
}

function adjustForForm(node: Json): void {
  // Lists of options become checkboxes (RJSF wants uniqueItems for that; a box cannot be ticked twice anyway).
  if (node.type === 'array' && isObject(node.items) && optionCount(node.items) !== undefined && node.uniqueItems === undefined) node.uniqueItems = true;
  // A property with a fixed value (a union's discriminator) gets it as its default: nobody has to type it.
  const properties = node.properties;
  if (isObject(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      if (isObject(property) && property.const !== undefined && property.default === undefined) properties[name] = { ...property, default: property.const };
    }
  }
}

export function formJsonSchema(raw: unknown): RJSFSchema {
  const schema = isObject(raw) ? (mapObjects(stripPatterns(raw), adjustForForm) as Json) : {};
  if (schema.type === undefined && !schema.oneOf && !schema.anyOf && !schema.allOf) schema.type = 'object';
  return schema as RJSFSchema;
}

/** Widget choices for every property, walked through nested objects and array items. */
export function formUiSchema(schema: RJSFSchema): UiSchema {
  const ui = uiFor(schema as Json, 0);
  ui['ui:submitButtonOptions'] = { norender: true };
  return ui;
}

function uiFor(schema: Json, depth: number): UiSchema {
  const ui: UiSchema = {};
  if (depth > 20) return ui;
  if (depth > 0 && isFreeForm(schema)) return { 'ui:field': 'JsonField' };
  // A fixed value (a union's discriminator, e.g. {"kind": {"const": "url"}}) is filled in, not asked.
  if (schema.const !== undefined && depth > 0) return { 'ui:widget': 'hidden' };
  const options = optionCount(schema);
  if (options !== undefined && options <= MAX_RADIOS && schema.type !== 'array') ui['ui:widget'] = 'radio';
  if (schema.type === 'array' && isObject(schema.items) && optionCount(schema.items) !== undefined) ui['ui:widget'] = 'checkboxes';
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (isObject(property)) {
        const child = uiFor(property, depth + 1);
        if (Object.keys(child).length) ui[name] = child;
      }
    }
  }
  // Each alternative of a union of shapes is drawn inside the union's own fieldset, not in another.
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const alternatives = schema[keyword];
    if (Array.isArray(alternatives) && optionCount(schema) === undefined) {
      ui[keyword] = alternatives.map((alternative) => ({ ...(isObject(alternative) ? uiFor(alternative, depth + 1) : {}), 'ui:options': { unionChoice: true } }));
    }
  }
  if (isObject(schema.items)) {
    const items = uiFor(schema.items, depth + 1);
    if (Object.keys(items).length) ui.items = items;
  }
  return ui;
}
