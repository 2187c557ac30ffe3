import { useCallback, useId, useMemo, useState } from 'react';
import { parseFormSchema, type FormSchema } from './schema';
import { validate, type ValidationErrors } from './validate';
import { defaultValues, submission, type FormValues } from './values';

export interface SchemaFormState {
  readonly schema: FormSchema;
  readonly values: FormValues;
  /** Every current problem (shown per field once it was touched or a submit was tried). */
  readonly errors: ValidationErrors;
  /** The error to show next to a field now, if any. */
  visibleError(name: string): string | undefined;
  setValue(name: string, value: unknown): void;
  /** Marks a field as visited (on blur): from then on its error shows while typing. */
  touch(name: string): void;
  /**
   * Tries to submit: shows every error and moves focus to the first bad field, or returns the
   * object to send (empty optional fields left out).
   */
  submit(): { ok: true; value: Record<string, unknown> } | { ok: false; errors: ValidationErrors };
  /** Back to the defaults, nothing touched. */
  reset(): void;
  /** Unique per form: the prefix of every input id. */
  readonly idPrefix: string;
  /** Changes on reset, so inputs keeping their own text remount. */
  readonly generation: number;
}

export function fieldId(form: Pick<SchemaFormState, 'idPrefix'>, name: string): string {
  // Property names are arbitrary strings: encode them into something an id (and CSS) accepts.
  return `${form.idPrefix}-${Array.from(name, (c) => (/[A-Za-z0-9_-]/.test(c) ? c : `_${c.codePointAt(0)!.toString(16)}`)).join('')}`;
}

/**
 * State for a form built from a JSON Schema: defaults prefilled, inline validation, submit.
 * `initial` overrides defaults (e.g. arguments from an earlier run).
 */
export function useSchemaForm(rawSchema: unknown, initial?: FormValues): SchemaFormState {
  const schema = useMemo(() => parseFormSchema(rawSchema), [rawSchema]);
  const idPrefix = `sf${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const [values, setValues] = useState<FormValues>(() => ({ ...defaultValues(schema), ...initial }));
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [generation, setGeneration] = useState(0);
  const errors = useMemo(() => validate(schema, values), [schema, values]);

  const setValue = useCallback((name: string, value: unknown) => {
    setValues((current) => {
      const next = { ...current };
      if (value === undefined) delete next[name];
      else next[name] = value;
      return next;
    });
  }, []);
  const touch = useCallback((name: string) => {
    setTouched((current) => (current.has(name) ? current : new Set(current).add(name)));
  }, []);
  const visibleError = useCallback((name: string) => (submitted || touched.has(name) ? errors[name] : undefined), [errors, submitted, touched]);
  const submit = useCallback((): ReturnType<SchemaFormState['submit']> => {
    setSubmitted(true);
    const first = schema.fields.find((f) => errors[f.name]);
    if (first) {
      // After React shows the errors; the first bad field gets focus (keyboard and screen readers land on it).
      queueMicrotask(() => document.getElementById(fieldId({ idPrefix }, first.name))?.focus());
      return { ok: false, errors };
    }
    return { ok: true, value: submission(schema, values) };
  }, [errors, idPrefix, schema, values]);
  const reset = useCallback(() => {
    setValues({ ...defaultValues(schema), ...initial });
    setTouched(new Set());
    setSubmitted(false);
    setGeneration((g) => g + 1);
  }, [initial, schema]);

  return { schema, values, errors, visibleError, setValue, touch, submit, reset, idPrefix, generation };
}
