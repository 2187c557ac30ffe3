import { useState } from 'react';
import type { FieldProps } from '@rjsf/utils';
import { describedBy } from './hints';

/**
 * What a JSON box holds while its text does not parse: reported as "Not valid JSON yet", never
 * sent (the person may be halfway through typing an object).
 */
export const NOT_JSON = '\u0000not valid JSON';

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
