import { ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { visibleText } from '../../lib/visible-text';

/** Children shown at once under an opened node; more on request. */
const PAGE = 100;
/** Characters of a string shown before "show all". */
const LONG_STRING = 240;

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] => typeof value === 'object' && value !== null;

function summary(value: Record<string, unknown> | unknown[]): string {
  if (Array.isArray(value)) return `[ ${value.length} item${value.length === 1 ? '' : 's'} ]`;
  const keys = Object.keys(value);
  return `{ ${keys.length} key${keys.length === 1 ? '' : 's'} }`;
}

function Leaf({ value }: { readonly value: unknown }) {
  const [all, setAll] = useState(false);
  if (typeof value === 'string') {
    const text = visibleText(value, { multiline: true });
    const long = text.length > LONG_STRING;
    return (
      <span className="json__string">
        “{long && !all ? `${text.slice(0, LONG_STRING)}…` : text}”
        {long ? (
          <button type="button" className="json__more" onClick={() => setAll((v) => !v)}>
            {all ? 'show less' : `show all ${text.length.toLocaleString('en-US')} characters`}
          </button>
        ) : null}
      </span>
    );
  }
  if (value === null || value === undefined) return <span className="json__null">null</span>;
  return <span className={`json__${typeof value}`}>{String(value)}</span>;
}

/** One entry: a value, or a container that opens to its children (rendered only once opened). */
function Node({ name, value }: { readonly name: string; readonly value: unknown }) {
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState(PAGE);
  if (!isContainer(value)) {
    return (
      <li className="json__row">
        <span className="json__key">{visibleText(name)}</span>
        <span className="json__colon">: </span>
        <Leaf value={value} />
      </li>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return (
    <li className="json__row">
      <button type="button" className="json__toggle" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        <ChevronRight className="json__chevron" aria-hidden="true" size={13} />
        <span className="json__key">{visibleText(name)}</span>
        <span className="json__summary">{summary(value)}</span>
      </button>
      {open ? <Children entries={entries} shown={shown} onMore={() => setShown((n) => n + PAGE)} /> : null}
    </li>
  );
}

function Children({ entries, shown, onMore }: { readonly entries: readonly (readonly [string, unknown])[]; readonly shown: number; readonly onMore: () => void }) {
  return (
    <ul className="json__children">
      {entries.slice(0, shown).map(([key, child]) => (
        <Node key={key} name={key} value={child} />
      ))}
      {entries.length > shown ? (
        <li className="json__row">
          <button type="button" className="json__more" onClick={onMore}>
            Show {Math.min(PAGE, entries.length - shown)} more of {entries.length.toLocaleString('en-US')}
          </button>
        </li>
      ) : null}
    </ul>
  );
}

/**
 * JSON as a tree: the first level open, every deeper level closed until the person opens it, and
 * only then rendered; long lists shown a hundred at a time, long strings cut. A big result never
 * becomes one big wall of text (or one big DOM).
 */
export function JsonTree({ value, label }: { readonly value: unknown; readonly label: string }) {
  const [shown, setShown] = useState(PAGE);
  if (!isContainer(value)) {
    return (
      <div className="json" aria-label={label}>
        <Leaf value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return (
    <div className="json" role="group" aria-label={label}>
      {entries.length === 0 ? <span className="json__summary">{summary(value)}</span> : <Children entries={entries} shown={shown} onMore={() => setShown((n) => n + PAGE)} />}
    </div>
  );
}
