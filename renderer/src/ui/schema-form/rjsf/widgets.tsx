import type { ChangeEvent, FormEvent, ReactNode } from 'react';
import { enumOptionsIndexForValue, getInputProps, optionId, type BaseInputTemplateProps, type RegistryWidgetsType, type WidgetProps } from '@rjsf/utils';
import { RequiredMark } from '../../RequiredMark';
import { describedBy } from './hints';

/**
 * What a number box holds while its text is not a number ("1e", "-"): the browser reports an
 * empty value, so this marker stands in and the validator says "Must be a number." instead of
 * silently dropping what was typed.
 */
export const NOT_A_NUMBER = 'not a number';

function invalid(rawErrors: readonly string[] | undefined) {
  return rawErrors?.length ? true : undefined;
}

/** Text, email, URL, date and number inputs, in Harbor's input style. */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { id, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, options, schema, rawErrors, type, required, placeholder } = props;
  const inputProps = getInputProps(schema, type, options);
  const numeric = inputProps.type === 'number';
  const change = (event: ChangeEvent<HTMLInputElement> | FormEvent<HTMLInputElement>) => {
    const { value: text, validity } = event.currentTarget;
    if (numeric) onChange(validity.badInput ? NOT_A_NUMBER : text === '' ? options.emptyValue : Number(text));
    else onChange(text === '' ? options.emptyValue : text);
  };
  // A number box shows nothing for the marker: writing it back would wipe what the person is typing.
  const shown = numeric ? (typeof value === 'number' ? value : '') : value == null ? '' : String(value);
  return (
    <input
      id={id}
      name={id}
      className={numeric ? 'input input--number' : 'input'}
      {...inputProps}
      placeholder={placeholder || (schema.format === 'date-time' ? '2026-07-28T14:30:00Z' : undefined)}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      value={shown}
      aria-invalid={invalid(rawErrors)}
      aria-required={required || undefined}
      aria-describedby={describedBy(id, schema, rawErrors)}
      onChange={change}
      // React's onChange skips an input event that leaves the value as it was, and a number box
      // reads "" both when empty and while its text is not a number ("-", "1e"): onInput sees both.
      onInput={numeric ? change : undefined}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}

function CheckboxWidget({ id, value, disabled, readonly, autofocus, label, required, schema, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  return (
    <label className="schema-form__check">
      <input
        type="checkbox"
        id={id}
        name={id}
        checked={value === true}
        disabled={disabled || readonly}
        autoFocus={autofocus}
        aria-invalid={invalid(rawErrors)}
        aria-describedby={describedBy(id, schema, rawErrors)}
        onChange={(e) => onChange(e.target.checked)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      <span>
        {label}
        <RequiredMark required={required} />
      </span>
    </label>
  );
}

/** Radios or checkboxes, one per option; the first carries the field's id (its label and errors point there). */
function Choices({ props, type, isChecked, pick, children }: { readonly props: WidgetProps; readonly type: 'radio' | 'checkbox'; readonly isChecked: (value: unknown) => boolean; readonly pick: (value: unknown, on: boolean) => void; readonly children?: ReactNode }) {
  const { id, value, disabled, readonly, autofocus, options, schema, rawErrors, onBlur, onFocus } = props;
  return (
    <div className="schema-form__choices">
      {(options.enumOptions ?? []).map((option, index) => (
        <label key={String(option.value)} className="schema-form__check">
          <input
            type={type}
            id={index === 0 ? id : optionId(id, index)}
            name={id}
            checked={isChecked(option.value)}
            disabled={disabled || readonly}
            autoFocus={autofocus && index === 0}
            aria-describedby={describedBy(id, schema, rawErrors)}
            onChange={(e) => pick(option.value, e.target.checked)}
            onBlur={() => onBlur(id, value)}
            onFocus={() => onFocus(id, value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
      {children}
    </div>
  );
}

function RadioWidget(props: WidgetProps) {
  const { value, disabled, readonly, required, label, onChange } = props;
  return (
    <Choices props={props} type="radio" isChecked={(v) => v === value} pick={(v) => onChange(v)}>
      {!required && value !== undefined ? (
        <button type="button" className="button button--small button--quiet" disabled={disabled || readonly} onClick={() => onChange(undefined)}>
          Clear {label}
        </button>
      ) : null}
    </Choices>
  );
}

function CheckboxesWidget(props: WidgetProps) {
  const { value, options, onChange } = props;
  const selected: unknown[] = Array.isArray(value) ? value : [];
  const toggle = (option: unknown, on: boolean) => {
    const set = new Set(selected);
    if (on) set.add(option);
    else set.delete(option);
    // Keep the schema's order, whatever order the boxes were ticked in.
    const next = (options.enumOptions ?? []).map((c) => c.value).filter((v) => set.has(v));
    onChange(next.length ? next : undefined);
  };
  return <Choices props={props} type="checkbox" isChecked={(v) => selected.includes(v)} pick={toggle} />;
}

function SelectWidget({ id, value, disabled, readonly, autofocus, options, required, schema, rawErrors, onChange, onBlur, onFocus, label, name }: WidgetProps) {
  const choices = options.enumOptions ?? [];
  const index = enumOptionsIndexForValue(value, choices, false);
  const pick = (text: string) => (text === '' ? options.emptyValue : choices[Number(text)]?.value);
  // The selector between a oneOf/anyOf's alternatives has no label of its own: it names itself.
  const union = typeof name === 'string' && /__(oneof|anyof)_select$/.test(name);
  return (
    <select
      id={id}
      name={id}
      className="input"
      value={index === undefined ? '' : String(index)}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      aria-label={union ? `${label}: which kind` : undefined}
      aria-invalid={invalid(rawErrors)}
      aria-required={required || undefined}
      aria-describedby={union ? undefined : describedBy(id, schema, rawErrors)}
      onChange={(e) => onChange(pick(e.target.value))}
      onBlur={(e) => onBlur(id, pick(e.target.value))}
      onFocus={(e) => onFocus(id, pick(e.target.value))}
    >
      {union ? null : <option value="">Choose…</option>}
      {choices.map((option, i) => (
        <option key={String(option.value)} value={String(i)}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

export const widgets: RegistryWidgetsType = {
  CheckboxWidget,
  RadioWidget,
  CheckboxesWidget,
  SelectWidget,
};
