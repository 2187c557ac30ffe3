import { useSchemaFormModule } from './load';
import type { SchemaFormState } from './use-schema-form';
import '../controls.css';
import './schema-form.css';

interface Props {
  readonly form: SchemaFormState;
  readonly disabled?: boolean;
  /** Shown when the schema has no properties. */
  readonly emptyText?: string;
  /** Focus the first field once it is on the page (a dialog that asks questions). */
  readonly autoFocus?: boolean;
}

/**
 * The inputs for a schema form (the caller owns the <form> and its buttons), built by RJSF. Its
 * code loads on first use; until then a line says so.
 */
export function SchemaFields({ form, disabled = false, emptyText = 'Nothing to fill in.', autoFocus = false }: Props) {
  const module = useSchemaFormModule();
  if (form.schema.fields.length === 0 && !hasUnion(form.jsonSchema)) return <p className="muted schema-form__empty">{emptyText}</p>;
  if (!module) {
    return (
      <p className="muted schema-form__loading" role="status">
        Loading the form…
      </p>
    );
  }
  const Fields = module.default;
  return (
    <Fields
      key={form.generation}
      schema={form.jsonSchema}
      values={form.values}
      onChange={form.setValues}
      live={form.submitted}
      disabled={disabled}
      idPrefix={form.idPrefix}
      autoFocus={autoFocus}
      handle={form.rendered}
    />
  );
}

/** A root schema that is a union of object shapes has no top-level properties but still a form. */
function hasUnion(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && ('oneOf' in schema || 'anyOf' in schema);
}
