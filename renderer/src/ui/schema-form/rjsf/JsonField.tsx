import { useState } from 'react';
import type { FieldProps, RJSFSchema } from '@rjsf/utils';
import { describedBy } from './hints';

/**
 * What a JSON box holds while its text does not parse: reported as "Not valid JSON yet", never
 * sent (the person may be halfway through typing an object).
 */
export const NOT_JSON = '\u0000not valid JSON';

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

function parse(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

export function JsonField({ formData, onChange, fieldPathId, schema, disabled, readonly, rawErrors, required }: FieldProps) {
  const id = fieldPathId.$id;
  // The text as typed (e.g. a half-written object); the form holds the parsed value.
  const [text, setText] = useState(() => (formData === undefined || formData === NOT_JSON ? '' : JSON.stringify(formData, null, 2)));
  return (
    <textarea
      id={id}
      name={id}
      className="input input--code"
      rows={3}
      spellCheck={false}
      value={text}
      disabled={disabled || readonly}
      aria-invalid={rawErrors?.length ? true : undefined}
      aria-required={required || undefined}
      aria-describedby={describedBy(id, schema, rawErrors)}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parse(e.target.value), fieldPathId.path);
      }}
    />
  );
}
