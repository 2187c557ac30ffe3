import { useState, type ReactNode } from 'react';
import type { EnumOption, FieldSpec } from './schema';
import { fieldId, type SchemaFormState } from './use-schema-form';
import { jsonFromText, numberFromText } from './values';
import { RequiredMark } from '../RequiredMark';
import '../controls.css';
import './schema-form.css';

interface Props {
  readonly form: SchemaFormState;
  readonly disabled?: boolean;
  /** Shown when the schema has no properties. */
  readonly emptyText?: string;
}

/**
 * The inputs for a schema form (the caller owns the <form> and its buttons). Every label, hint and
 * error is text from the schema, rendered as text. Errors show once a field was left or a submit
 * was tried, and are tied to their input with aria-describedby.
 */
export function SchemaFields({ form, disabled = false, emptyText = 'Nothing to fill in.' }: Props) {
  if (form.schema.fields.length === 0) return <p className="muted schema-form__empty">{emptyText}</p>;
  return (
    <div className="schema-form" key={form.generation}>
      {form.schema.fields.map((field) => (
        <Field key={field.name} field={field} form={form} disabled={disabled} />
      ))}
    </div>
  );
}

interface FieldProps {
  readonly field: FieldSpec;
  readonly form: SchemaFormState;
  readonly disabled: boolean;
}

function Field({ field, form, disabled }: FieldProps) {
  const id = fieldId(form, field.name);
  const error = form.visibleError(field.name);
  const hintId = field.description || hintFor(field) ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
    onBlur: () => form.touch(field.name),
  } as const;
  const value = form.values[field.name];
  const set = (next: unknown) => form.setValue(field.name, next);

  const hint = (
    <>
      {hintId ? (
        <p className="schema-form__hint" id={hintId}>
          {[field.description, hintFor(field)].filter(Boolean).join(' ')}
        </p>
      ) : null}
      {errorId ? (
        <p className="schema-form__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </>
  );

  if (field.kind === 'boolean') {
    return (
      <div className="schema-form__field schema-form__field--check">
        <label className="schema-form__check">
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => set(e.target.checked)} />
          <span>
            {field.label}
            <RequiredMark required={field.required} />
          </span>
        </label>
        {hint}
      </div>
    );
  }

  if (field.kind === 'multi' || (field.kind === 'enum' && field.options.length <= 4)) {
    return (
      <fieldset className="schema-form__field schema-form__group" aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
        <legend>
          {field.label}
          <RequiredMark required={field.required} />
        </legend>
        {field.options.map((option, index) => {
          const optionId = index === 0 ? id : `${id}-${index}`;
          const checked = field.kind === 'multi' ? Array.isArray(value) && value.includes(option.value) : value === option.value;
          return (
            <label key={String(option.value)} className="schema-form__check">
              <input
                id={optionId}
                type={field.kind === 'multi' ? 'checkbox' : 'radio'}
                name={id}
                disabled={disabled}
                checked={checked}
                onBlur={() => form.touch(field.name)}
                onChange={(e) => set(field.kind === 'multi' ? toggled(value, option, e.target.checked, field.options) : option.value)}
              />
              <span>{option.label}</span>
            </label>
          );
        })}
        {field.kind === 'enum' && !field.required && value !== undefined ? (
          <button type="button" className="button button--small button--quiet" disabled={disabled} onClick={() => set(undefined)}>
            Clear {field.label}
          </button>
        ) : null}
        {hint}
      </fieldset>
    );
  }

  return (
    <div className="schema-form__field">
      <label className="schema-form__label" htmlFor={id}>
        {field.label}
        <RequiredMark required={field.required} />
      </label>
      {field.kind === 'enum' ? (
        <select {...common} className="input" value={indexOf(field.options, value)} onChange={(e) => set(field.options[Number(e.target.value)]?.value)}>
          <option value="">Choose…</option>
          {field.options.map((option, index) => (
            <option key={String(option.value)} value={String(index)}>
              {option.label}
            </option>
          ))}
        </select>
      ) : field.kind === 'string' ? (
        <input
          {...common}
          className="input"
          type={field.format === 'date' ? 'date' : field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : 'text'}
          placeholder={field.format === 'date-time' ? '2026-07-28T14:30:00Z' : undefined}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => set(e.target.value === '' ? undefined : e.target.value)}
        />
      ) : field.kind === 'number' || field.kind === 'integer' ? (
        <TextBacked initial={value === undefined ? '' : String(value)}>
          {(text, setText) => (
            <input
              {...common}
              className="input input--number"
              type="text"
              inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                set(numberFromText(e.target.value));
              }}
            />
          )}
        </TextBacked>
      ) : (
        <TextBacked initial={value === undefined ? '' : JSON.stringify(value, null, 2)}>
          {(text, setText) => (
            <textarea
              {...common}
              className="input input--code"
              rows={3}
              spellCheck={false}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                set(jsonFromText(e.target.value));
              }}
            />
          )}
        </TextBacked>
      )}
      {hint}
    </div>
  );
}

/** Keeps what the person typed (e.g. "1." or a half-written object) while the form holds the parsed value. */
function TextBacked({ initial, children }: { readonly initial: string; readonly children: (text: string, setText: (t: string) => void) => ReactNode }) {
  const [text, setText] = useState(initial);
  return <>{children(text, setText)}</>;
}

function indexOf(options: readonly EnumOption[], value: unknown): string {
  const index = options.findIndex((o) => o.value === value);
  return index < 0 ? '' : String(index);
}

function toggled(current: unknown, option: EnumOption, on: boolean, options: readonly EnumOption[]): unknown[] | undefined {
  const set = new Set(Array.isArray(current) ? current : []);
  if (on) set.add(option.value);
  else set.delete(option.value);
  // Keep the schema's order, whatever order the boxes were ticked in.
  const next = options.map((o) => o.value).filter((v) => set.has(v));
  return next.length ? next : undefined;
}

/** The constraints in words, so nobody has to fail a submit to learn them. */
function hintFor(field: FieldSpec): string | undefined {
  const parts: string[] = [];
  switch (field.kind) {
    case 'string':
      if (field.minLength !== undefined && field.maxLength !== undefined) parts.push(`${field.minLength}–${field.maxLength} characters.`);
      else if (field.minLength !== undefined) parts.push(`At least ${field.minLength} characters.`);
      else if (field.maxLength !== undefined) parts.push(`At most ${field.maxLength} characters.`);
      if (field.format === 'date-time') parts.push('Date and time with a time zone.');
      break;
    case 'number':
    case 'integer': {
      const low = field.minimum ?? field.exclusiveMinimum;
      const high = field.maximum ?? field.exclusiveMaximum;
      const what = field.kind === 'integer' ? 'A whole number' : 'A number';
      if (low !== undefined && high !== undefined) parts.push(`${what} from ${low} to ${high}.`);
      else if (low !== undefined) parts.push(`${what}, at least ${low}.`);
      else if (high !== undefined) parts.push(`${what}, at most ${high}.`);
      else if (field.kind === 'integer') parts.push('A whole number.');
      break;
    }
    case 'multi':
      if (field.minItems !== undefined && field.maxItems !== undefined) parts.push(`Pick ${field.minItems}–${field.maxItems}.`);
      else if (field.minItems !== undefined) parts.push(`Pick at least ${field.minItems}.`);
      else if (field.maxItems !== undefined) parts.push(`Pick at most ${field.maxItems}.`);
      break;
    case 'json':
      parts.push(`JSON: ${field.expects}.`);
      break;
    default:
      break;
  }
  return parts.length ? parts.join(' ') : undefined;
}
