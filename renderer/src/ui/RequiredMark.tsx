/** The "*" after a required field's label, read out as "(required)". */
export function RequiredMark({ required }: { readonly required: boolean | undefined }) {
  if (!required) return null;
  return (
    <span className="schema-form__required">
      <span aria-hidden="true"> *</span>
      <span className="visually-hidden"> (required)</span>
    </span>
  );
}
