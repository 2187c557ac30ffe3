import { isValidElement } from 'react';
import {
  descriptionId,
  errorId,
  getUiOptions,
  type ArrayFieldItemTemplateProps,
  type ArrayFieldTemplateProps,
  type DescriptionFieldProps,
  type FieldTemplateProps,
  type IconButtonProps,
  type MultiSchemaFieldTemplateProps,
  type ObjectFieldTemplateProps,
  type TemplatesType,
  type TitleFieldProps,
} from '@rjsf/utils';
import { RequiredMark } from '../../RequiredMark';
import { hintText } from './hints';
import { BaseInputTemplate } from './widgets';

/**
 * Harbor's look for RJSF: labelled fields with help under them and the error right below, nested
 * objects and lists as fieldsets with legends, list items with move/remove buttons. Every label,
 * hint and error is server text rendered as text (never as HTML or markdown).
 */

function Hint({ id, text }: { readonly id: string; readonly text: string | undefined }) {
  return text ? (
    <p className="schema-form__hint" id={id}>
      {text}
    </p>
  ) : null;
}

function Errors({ id, errors }: { readonly id: string; readonly errors: readonly string[] | undefined }) {
  const shown = [...new Set(errors ?? [])];
  return shown.length ? (
    <p className="schema-form__error" id={id}>
      {shown.join(' ')}
    </p>
  ) : null;
}

function FieldTemplate({ id, label, children, rawErrors, hidden, required, displayLabel, schema, uiSchema }: FieldTemplateProps) {
  if (hidden) return <div hidden>{children}</div>;
  const widget = getUiOptions(uiSchema).widget;
  const json = uiSchema?.['ui:field'] === 'JsonField';
  const container = !json && schema.type === 'object' || (schema.type === 'array' && widget !== 'checkboxes') || (!schema.type && (schema.oneOf || schema.anyOf));
  // Objects and lists draw their own fieldset; only a list-wide error (e.g. too few items) shows here.
  if (container) {
    return (
      <div className="schema-form__container">
        {children}
        <Errors id={errorId(id)} errors={rawErrors} />
      </div>
    );
  }
  const hint = <Hint id={descriptionId(id)} text={hintText(schema)} />;
  const errors = <Errors id={errorId(id)} errors={rawErrors} />;
  if (widget === 'radio' || widget === 'checkboxes') {
    return (
      <fieldset className="schema-form__field schema-form__group" aria-invalid={rawErrors?.length ? true : undefined}>
        <legend>
          {label}
          <RequiredMark required={required} />
        </legend>
        {children}
        {hint}
        {errors}
      </fieldset>
    );
  }
  const checkbox = schema.type === 'boolean' && !json;
  return (
    <div className={checkbox ? 'schema-form__field schema-form__field--check' : 'schema-form__field'}>
      {(displayLabel || json) && !checkbox ? (
        <label className="schema-form__label" htmlFor={id}>
          {label}
          <RequiredMark required={required} />
        </label>
      ) : null}
      {children}
      {hint}
      {errors}
    </div>
  );
}

/** The title of an object or list: its legend, or "Item 2" for the second object of a list. */
function legendText(title: string, path: readonly (string | number)[], schemaTitle: unknown): string {
  const last = path.at(-1);
  if (typeof last === 'number') return `${typeof schemaTitle === 'string' && schemaTitle ? schemaTitle : 'Item'} ${last + 1}`;
  return title;
}

function ObjectFieldTemplate({ title, description, properties, required, schema, fieldPathId, uiSchema }: ObjectFieldTemplateProps) {
  // A pure union draws its selector and the chosen alternative elsewhere.
  if ((schema.oneOf || schema.anyOf) && !schema.properties && properties.length === 0) return null;
  const fields = properties.filter((p) => !p.hidden).map((p) => p.content);
  if (fieldPathId.path.length === 0) return <div className="schema-form">{fields}</div>;
  if (getUiOptions(uiSchema).unionChoice) return <div className="schema-form__union-body">{fields}</div>;
  const item = typeof fieldPathId.path.at(-1) === 'number';
  return (
    <fieldset className="schema-form__fieldset" id={fieldPathId.$id}>
      <legend>
        {legendText(title, fieldPathId.path, schema.title)}
        <RequiredMark required={required && !item} />
      </legend>
      {typeof description === 'string' || isValidElement(description) ? <Hint id={descriptionId(fieldPathId)} text={typeof schema.description === 'string' ? schema.description : undefined} /> : null}
      {fields}
    </fieldset>
  );
}

function ArrayFieldTemplate({ title, items, canAdd, onAddClick, disabled, readonly, required, schema, fieldPathId }: ArrayFieldTemplateProps) {
  const name = legendText(title, fieldPathId.path, schema.title);
  return (
    <fieldset className="schema-form__fieldset schema-form__list" id={fieldPathId.$id}>
      <legend>
        {name}
        <RequiredMark required={required} />
      </legend>
      <Hint id={descriptionId(fieldPathId)} text={typeof schema.description === 'string' ? schema.description : undefined} />
      {items.length ? <ol className="schema-form__items">{items}</ol> : <p className="muted schema-form__none">No items yet.</p>}
      {canAdd ? (
        <button type="button" className="button button--small" aria-label={`Add to ${name}`} title={`Add to ${name}`} disabled={disabled || readonly} onClick={onAddClick}>
          Add
        </button>
      ) : null}
    </fieldset>
  );
}

function ArrayFieldItemTemplate({ children, buttonsProps, hasToolbar, index }: ArrayFieldItemTemplateProps) {
  const { hasMoveUp, hasMoveDown, hasRemove, onMoveUpItem, onMoveDownItem, onRemoveItem, disabled, readonly } = buttonsProps;
  const off = disabled || readonly;
  const item = `item ${index + 1}`;
  return (
    <li className="schema-form__item">
      <div className="schema-form__item-body">{children}</div>
      {hasToolbar ? (
        <div className="schema-form__item-actions">
          {hasMoveUp || hasMoveDown ? (
            <>
              <button type="button" className="button button--small button--quiet" aria-label={`Move ${item} up`} title={`Move ${item} up`} disabled={off || !hasMoveUp} onClick={onMoveUpItem}>
                ↑
              </button>
              <button type="button" className="button button--small button--quiet" aria-label={`Move ${item} down`} title={`Move ${item} down`} disabled={off || !hasMoveDown} onClick={onMoveDownItem}>
                ↓
              </button>
            </>
          ) : null}
          {hasRemove ? (
            <button type="button" className="button button--small button--quiet" aria-label={`Remove ${item}`} title={`Remove ${item}`} disabled={off} onClick={onRemoveItem}>
              Remove
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** A oneOf/anyOf: a fieldset with the selector of its alternatives, then the chosen one's fields. */
function MultiSchemaFieldTemplate({ selector, optionSchemaField, schema }: MultiSchemaFieldTemplateProps) {
  const label = isValidElement<{ label?: unknown }>(selector) && typeof selector.props.label === 'string' ? selector.props.label : schema.title;
  return (
    <fieldset className="schema-form__fieldset schema-form__union">
      {label ? <legend>{label}</legend> : null}
      {selector}
      {optionSchemaField}
    </fieldset>
  );
}

function TitleFieldTemplate({ id, title, required }: TitleFieldProps) {
  return (
    <legend id={id}>
      {title}
      <RequiredMark required={required} />
    </legend>
  );
}

function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  return typeof description === 'string' && description ? <Hint id={id} text={description} /> : null;
}

const Nothing = () => null;
const NoButton = (_props: IconButtonProps) => null;

export const templates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> & { ButtonTemplates?: Partial<TemplatesType['ButtonTemplates']> } = {
  FieldTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ArrayFieldItemTemplate,
  MultiSchemaFieldTemplate,
  TitleFieldTemplate,
  DescriptionFieldTemplate,
  BaseInputTemplate,
  ErrorListTemplate: Nothing,
  FieldErrorTemplate: Nothing,
  FieldHelpTemplate: Nothing,
  ButtonTemplates: { SubmitButton: Nothing, CopyButton: NoButton },
};
