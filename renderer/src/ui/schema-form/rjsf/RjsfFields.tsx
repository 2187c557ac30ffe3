import { useCallback, useImperativeHandle, useMemo, useRef, type Ref } from 'react';
// The Form alone: the package's index also exports a test registry that imports the Ajv validator.
import Form, { type IChangeEvent } from '@rjsf/core/lib/components/Form.js';
import type { RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { formJsonSchema, formUiSchema } from './prepare';
import { templates } from './templates';
import { widgets } from './widgets';
import { JsonField } from './JsonField';
import { harborValidator, validateValues, type ValidationErrors } from './validator';
import './rjsf.css';

/** What the form state (use-schema-form) asks of the rendered form. */
export interface RenderedForm {
  /**
   * Shows every problem next to its field and moves focus to the first. Returns them (empty:
   * valid) with the form's data (the values typed plus the schema's defaults).
   */
  validate(): { errors: ValidationErrors; data: Record<string, unknown> };
}

export interface RjsfFieldsProps {
  readonly schema: unknown;
  readonly values: Readonly<Record<string, unknown>>;
  readonly onChange: (values: Record<string, unknown>) => void;
  /** After the first submit: errors follow every change, so they go away as they are fixed. */
  readonly live: boolean;
  readonly disabled: boolean;
  readonly idPrefix: string;
  readonly autoFocus: boolean;
  readonly handle: Ref<RenderedForm>;
}

/**
 * The form itself, built by RJSF from the JSON Schema with Harbor's templates and widgets. Loaded
 * on demand (its code is not in the first bundle). Renders a <div>: the caller owns the <form>,
 * its submit button and what a submit does.
 */
export default function RjsfFields({ schema: raw, values, onChange, live, disabled, idPrefix, autoFocus, handle }: RjsfFieldsProps) {
  const schema: RJSFSchema = useMemo(() => formJsonSchema(raw), [raw]);
  const uiSchema = useMemo(() => {
    const ui = formUiSchema(schema);
    return autoFocus ? { ...ui, ...firstFieldAutofocus(schema, ui) } : ui;
  }, [schema, autoFocus]);
  const form = useRef<Form>(null);
  const box = useRef<HTMLDivElement>(null);
  // RJSF's own focusing reads `form.elements`, which a <div> form does not have.
  const focusError = useCallback(
    (error: RJSFValidationError) => {
      const parts = (error.property ?? '').split('.').filter(Boolean);
      const id = [idPrefix, ...parts].join('_');
      const exact = box.current?.querySelector<HTMLElement>(`[id="${CSS.escape(id)}"]`);
      const field = exact && exact.matches('input, select, textarea') ? exact : box.current?.querySelector<HTMLElement>(`:is(input, select, textarea)[id^="${CSS.escape(id)}"]`);
      field?.focus();
    },
    [idPrefix],
  );

  useImperativeHandle(
    handle,
    () => ({
      validate: () => {
        const data = (form.current?.state.formData ?? {}) as Record<string, unknown>;
        form.current?.validateForm();
        return { errors: validateValues(schema, data), data };
      },
    }),
    [schema],
  );
  const change = useCallback((event: IChangeEvent) => onChange((event.formData ?? {}) as Record<string, unknown>), [onChange]);

  return (
    <div ref={box} className="schema-form__box">
    <Form
      ref={form}
      tagName="div"
      className="schema-form__root"
      schema={schema}
      uiSchema={uiSchema}
      formData={values}
      validator={harborValidator}
      templates={templates}
      widgets={widgets}
      fields={FIELDS}
      idPrefix={idPrefix}
      disabled={disabled}
      liveValidate={live ? 'onChange' : false}
      showErrorList={false}
      focusOnFirstError={focusError}
      experimental_defaultFormStateBehavior={{ emptyObjectFields: 'skipEmptyDefaults', arrayMinItems: { populate: 'requiredOnly' }, constAsDefaults: 'never' }}
      onChange={change}
      // Errors are shown next to their fields; without a handler RJSF also logs them to the console.
      onError={ignore}
    />
    </div>
  );
}

const ignore = () => undefined;
const FIELDS = { JsonField };

/** Autofocus on the first top-level field (a dialog asking questions starts there). */
function firstFieldAutofocus(schema: RJSFSchema, ui: Record<string, unknown>): Record<string, unknown> {
  const first = schema.properties ? Object.keys(schema.properties)[0] : undefined;
  if (first === undefined) return {};
  const current = typeof ui[first] === 'object' && ui[first] !== null ? (ui[first] as Record<string, unknown>) : {};
  return { [first]: { ...current, 'ui:autofocus': true } };
}
