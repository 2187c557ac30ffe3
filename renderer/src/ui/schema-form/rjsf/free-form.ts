import type { RJSFSchema } from '@rjsf/utils';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A schema that says nothing about its content beyond "an object" / "a list" / anything: there are
 * no fields to draw, so its value is typed as JSON.
 */
export function isFreeForm(schema: Record<string, unknown>): boolean {
  if (schema.enum || schema.const !== undefined || schema.oneOf || schema.anyOf || schema.allOf || schema.$ref) return false;
  if (schema.type === 'object') return !isObject(schema.properties) || Object.keys(schema.properties).length === 0 ? !isObject(schema.additionalProperties) : false;
  if (schema.type === 'array') return !isObject(schema.items) || isFreeForm(schema.items);
  // ["string", "null"] is a string that may be left out; two real types are anything.
  if (Array.isArray(schema.type)) return schema.type.filter((t) => t !== 'null').length !== 1;
  return schema.type === undefined && !isObject(schema.properties) && !isObject(schema.items);
}

/** What JSON the box expects, for its hint. */
export function jsonExpects(schema: RJSFSchema): string {
  if (schema.type === 'object') return 'JSON: an object, e.g. {"key": "value"}.';
  if (schema.type === 'array') return 'JSON: a list, e.g. ["a", "b"].';
  return 'JSON: any value, e.g. "text", 42 or {"key": "value"}.';
}
