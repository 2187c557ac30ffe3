import { useState } from 'react';

type Primitive = string | number | boolean | null;
const MAX_ROWS = 200;
const MAX_COLUMNS = 16;

const isPrimitive = (value: unknown): value is Primitive => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isFlatObject = (value: unknown): value is Record<string, Primitive> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isPrimitive);

function cell(value: Primitive | undefined): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  return String(value);
}

/** A table for what reads as one (a list of flat records, or one flat record), else undefined. */
function tableOf(value: unknown): { columns: string[]; rows: Record<string, Primitive>[] } | undefined {
  if (Array.isArray(value) && value.length > 0 && value.every(isFlatObject)) {
    const columns = [...new Set(value.flatMap((row) => Object.keys(row)))];
    if (columns.length === 0 || columns.length > MAX_COLUMNS) return undefined;
    return { columns, rows: value.slice(0, MAX_ROWS) };
  }
  if (isFlatObject(value) && Object.keys(value).length > 0) {
    return { columns: ['Field', 'Value'], rows: Object.entries(value).map(([k, v]) => ({ Field: k, Value: v })) };
  }
  // {"items": [...]}: the common wrapper around a list.
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 1 && Array.isArray(entries[0]![1])) return tableOf(entries[0]![1]);
  }
  return undefined;
}

/** A tool's structuredContent: a table when it is tabular, else JSON; both are text. */
export function StructuredView({ value }: { readonly value: unknown }) {
  const table = tableOf(value);
  const [asJson, setAsJson] = useState(table === undefined);
  const total = Array.isArray(value) ? value.length : undefined;
  return (
    <div className="structured">
      <div className="structured__bar">
        <span className="structured__label">Structured result</span>
        {table ? (
          <button type="button" className="button button--small button--quiet" onClick={() => setAsJson((v) => !v)}>
            {asJson ? 'Show as table' : 'Show as JSON'}
          </button>
        ) : null}
      </div>
      {table && !asJson ? (
        <div className="structured__scroll">
          <table className="table structured__table">
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, index) => (
                <tr key={index}>
                  {table.columns.map((c) => (
                    <td key={c}>{cell(row[c])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {total !== undefined && total > MAX_ROWS ? <p className="muted">First {MAX_ROWS} of {total} rows.</p> : null}
        </div>
      ) : (
        <pre className="structured__json">{JSON.stringify(value, null, 2)}</pre>
      )}
    </div>
  );
}
