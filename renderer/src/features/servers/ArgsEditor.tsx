import { useRef } from 'react';
import { rowId, type ArgRow } from './server-form-model';

interface Props {
  readonly rows: readonly ArgRow[];
  readonly onChange: (rows: ArgRow[]) => void;
  readonly disabled?: boolean;
}

/**
 * The command's arguments, one per row, in order: each can be edited, moved up or down, or
 * removed. One row is one argument exactly as the program receives it (no shell splitting), so
 * spaces and quotes need no escaping.
 */
export function ArgsEditor({ rows, onChange, disabled = false }: Props) {
  const list = useRef<HTMLOListElement>(null);
  const focusRow = (index: number) =>
    queueMicrotask(() => list.current?.querySelectorAll<HTMLInputElement>('input')[index]?.focus());
  const update = (index: number, value: string) => onChange(rows.map((r, i) => (i === index ? { ...r, value } : r)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    onChange(next);
    focusRow(index + by);
  };
  const remove = (index: number) => {
    onChange(rows.filter((_, i) => i !== index));
    focusRow(Math.max(0, index - 1));
  };
  const add = () => {
    onChange([...rows, { id: rowId(), value: '' }]);
    focusRow(rows.length);
  };
  return (
    <fieldset className="rows-editor">
      <legend>Arguments</legend>
      {rows.length === 0 ? <p className="muted rows-editor__empty">No arguments.</p> : null}
      <ol ref={list} className="rows-editor__list" aria-label="Arguments">
        {rows.map((row, index) => (
          <li key={row.id} className="rows-editor__row">
            <span className="rows-editor__index" aria-hidden="true">
              {index + 1}
            </span>
            <input
              className="input input--code"
              aria-label={`Argument ${index + 1}`}
              value={row.value}
              disabled={disabled}
              spellCheck={false}
              onChange={(e) => update(index, e.target.value)}
            />
            <button type="button" className="button button--small button--icon" aria-label={`Move argument ${index + 1} up`} disabled={disabled || index === 0} onClick={() => move(index, -1)}>
              ↑
            </button>
            <button
              type="button"
              className="button button--small button--icon"
              aria-label={`Move argument ${index + 1} down`}
              disabled={disabled || index === rows.length - 1}
              onClick={() => move(index, 1)}
            >
              ↓
            </button>
            <button type="button" className="button button--small button--icon" aria-label={`Remove argument ${index + 1}`} disabled={disabled} onClick={() => remove(index)}>
              ✕
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="button button--small" disabled={disabled} onClick={add}>
        Add argument
      </button>
    </fieldset>
  );
}
