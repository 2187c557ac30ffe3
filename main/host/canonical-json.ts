/**
 * JSON with object keys sorted and array order kept: two values that mean the same (keys in
 * another order, an env written differently) compare equal. Undefined object members are left
 * out, as JSON.stringify does.
 */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
