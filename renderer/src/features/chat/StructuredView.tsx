import { useState } from 'react';
import { visibleText } from '../../lib/visible-text';
import { JsonTree } from './JsonTree';

type Primitive = string | number | boolean | null;
const MAX_ROWS = 200;
const MAX_COLUMNS = 16;
/** Characters of raw JSON shown at first, and added by each "show more". */
const RAW_PAGE = 20_000;

const isPrimitive = (value: unknown): value is Primitive => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isFlatObject = (value: unknown): value is Record<string, Primitive> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isPrimitive);

function cell(value: Primitive | undefined): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  return visibleText(String(value));
}

/** A table for what reads as one (a list of flat records, or one flat record), else undefined. */
export function tableOf(value: unknown): { columns: string[]; rows: Record<string, Primitive>[]; total: number } | undefined {
  if (Array.isArray(value) && value.length > 0 && value.every(isFlatObject)) {
    const columns = [...new Set(value.flatMap((row) => Object.keys(row)))];
    if (columns.length === 0 || columns.length > MAX_COLUMNS) return undefined;
    return { columns, rows: value.slice(0, MAX_ROWS), total: value.length };
  }
  if (isFlatObject(value) && Object.keys(value).length > 0) {
    return { columns: ['Field', 'Value'], rows: Object.entries(value).map(([k, v]) => ({ Field: k, Value: v })), total: Object.keys(value).length };
  }
  // {"items": [...]}: the common wrapper around a list.
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 1 && Array.isArray(entries[0]![1])) return tableOf(entries[0]![1]);
  }
  return undefined;
}

type View = 'table' | 'tree' | 'json';

function RawJson({ value }: { readonly value: unknown }) {
  const [limit, setLimit] = useState(RAW_PAGE);
  const text = JSON.stringify(value, null, 2) ?? '';
  return (
    <>
      <pre className="structured__json" tabIndex={0}>
        {visibleText(text.length > limit ? `${text.slice(0, limit)}\n…` : text, { multiline: true })}
      </pre>
      {text.length > limit ? (
        <button type="button" className="button button--small button--quiet" onClick={() => setLimit((n) => n + RAW_PAGE)}>
          Show more ({Math.round((text.length - limit) / 1000).toLocaleString('en-US')} KB left)
        </button>
      ) : null}
    </>
  );
}

/**
 * Structured data (a tool's structuredContent, JSON it returned as text, a script's result): a
 * table when it reads as one, else a tree opened level by level; the raw JSON on request, a page
 * at a time. Everything is text.
 */
export function StructuredView({ value, label = 'Structured result' }: { readonly value: unknown; readonly label?: string }) {
  const table = tableOf(value);
  const [view, setView] = useState<View>(table ? 'table' : 'tree');
  const views: View[] = table ? ['table', 'tree', 'json'] : ['tree', 'json'];
  const names: Record<View, string> = { table: 'Table', tree: 'Tree', json: 'JSON' };
  return (
    <div className="structured">
      <div className="structured__bar">
        <span className="structured__label">{label}</span>
        <span className="structured__views" role="group" aria-label={`Show ${label.toLowerCase()} as`}>
          {views.map((v) => (
            <button key={v} type="button" className="structured__view" aria-pressed={view === v} onClick={() => setView(v)}>
              {names[v]}
            </button>
          ))}
        </span>
      </div>
      {view === 'table' && table ? (
        <div className="structured__scroll" tabIndex={0} role="group" aria-label={`${label} table`}>
          <table className="table structured__table">
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c} scope="col">
                    {visibleText(c)}
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
          {table.total > MAX_ROWS ? <p className="muted">First {MAX_ROWS} of {table.total} rows.</p> : null}
        </div>
      ) : null}
      {view === 'tree' ? <JsonTree value={value} label={label} /> : null}
      {view === 'json' ? <RawJson value={value} /> : null}
    </div>
  );
}
