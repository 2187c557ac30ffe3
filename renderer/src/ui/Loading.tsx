export function Loading({ label }: { readonly label: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="loading__dot" aria-hidden="true" />
      {label}
    </p>
  );
}
