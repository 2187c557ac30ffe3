import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { parseFormSchema, type FormSchema } from './schema';
import { submission, type FormValues } from './submission';
import type { RenderedForm } from './rjsf/RjsfFields';

/** One sentence per place that is not right yet, keyed by path ("name", "items.0.id"). Empty when valid. */
export type ValidationErrors = Readonly<Record<string, string>>;

export interface SchemaFormState {
  /** The raw JSON Schema the form is built from (a server's: untrusted). */
  readonly jsonSchema: unknown;
  /** Its top-level fields, read defensively (labels, kinds: e.g. for the "asks for a secret" warning). */
  readonly schema: FormSchema;
  readonly values: FormValues;
  setValues(values: Record<string, unknown>): void;
  /** A submit was tried: errors now follow every change. */
  readonly submitted: boolean;
  /**
   * Tries to submit: shows every error next to its field and moves focus to the first, or returns
   * the object to send (empty optional fields left out).
   */
  submit(): { ok: true; value: Record<string, unknown> } | { ok: false; errors: ValidationErrors };
  /** Back to the defaults, nothing shown as wrong. */
  reset(): void;
  /** Unique per form: the prefix of every input id. */
  readonly idPrefix: string;
  /** Changes on reset, so the rendered form starts over. */
  readonly generation: number;
  /** Set by the rendered form (SchemaFields) once it is on the page. */
  readonly rendered: { current: RenderedForm | null };
}

/**
 * State for a form built from a JSON Schema: values, validation on submit (then live), submit.
 * `initial` is prefilled (e.g. arguments from an earlier run); the schema's defaults fill the rest.
 */
export function useSchemaForm(rawSchema: unknown, initial?: FormValues): SchemaFormState {
  const schema = useMemo(() => parseFormSchema(rawSchema), [rawSchema]);
  const idPrefix = `sf${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const [values, setValues] = useState<FormValues>(() => ({ ...initial }));
  const [submitted, setSubmitted] = useState(false);
  const [generation, setGeneration] = useState(0);
  const rendered = useRef<RenderedForm | null>(null);

  const submit = useCallback((): ReturnType<SchemaFormState['submit']> => {
    // A schema without fields needs no form (and its code may not even be loaded).
    if (schema.fields.length === 0 && !rendered.current) return { ok: true, value: {} };
    setSubmitted(true);
    if (!rendered.current) return { ok: false, errors: { '': 'The form is still loading.' } };
    const { errors, data } = rendered.current.validate();
    if (Object.keys(errors).length) return { ok: false, errors };
    return { ok: true, value: submission(schema, data) };
  }, [schema]);
  const reset = useCallback(() => {
    setValues({ ...initial });
    setSubmitted(false);
    setGeneration((g) => g + 1);
  }, [initial]);

  return { jsonSchema: rawSchema, schema, values, setValues, submitted, submit, reset, idPrefix, generation, rendered };
}
