import { useRef } from 'react';
import { Switch } from '../../ui/Switch';
import { rowId, type KeyValueRow } from './server-form-model';

interface Props {
  /** "Environment variables" / "Headers". */
  readonly legend: string;
  /** "variable" / "header": names the buttons ("Add variable"). */
  readonly noun: string;
  readonly rows: readonly KeyValueRow[];
  readonly onChange: (rows: KeyValueRow[]) => void;
  /** Errors by `${row.id}.key` / `${row.id}.value`. */
  readonly errors: Readonly<Record<string, string>>;
  /** Secret names the keychain holds (undefined: not known). */
  readonly secretNames: ReadonlySet<string> | undefined;
  /** Why the keychain cannot be reached ('' when no reason is given); undefined when it can. */
  readonly keychainProblem?: string | undefined;
  readonly disabled?: boolean;
}

/**
 * Name/value rows with a "secret" switch. A secret's value is typed once, stored in the OS
 * keychain when the server is saved, and never shown again: the row only says whether it is set
 * and offers to replace it. The configuration holds `${secret:NAME}`.
 */
export function KeyValueEditor({ legend, noun, rows, onChange, errors, secretNames, keychainProblem, disabled = false }: Props) {
  const list = useRef<HTMLUListElement>(null);
  const update = (id: string, patch: Partial<KeyValueRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const add = () => {
    onChange([...rows, { id: rowId(), key: '', value: '', secret: false }]);
    queueMicrotask(() => list.current?.querySelectorAll<HTMLInputElement>('input[data-role="key"]')[rows.length]?.focus());
  };
  return (
    <fieldset className="rows-editor">
      <legend>{legend}</legend>
      {rows.length === 0 ? <p className="muted rows-editor__empty">None.</p> : null}
      {/* Said in full only where a value is being entered: a secret one cannot be saved. */}
      {rows.length > 0 && keychainProblem !== undefined ? (
        <p className="notice notice--warn">
          The system keychain cannot be reached{keychainProblem ? `: ${keychainProblem.replace(/\.+$/, '')}` : ''}. A value marked secret cannot be saved until it can; other values are written to the configuration file.
        </p>
      ) : null}
      <ul ref={list} className="rows-editor__list" aria-label={legend}>
        {rows.map((row, index) => {
          const name = row.key.trim() || `${noun} ${index + 1}`;
          const keyError = errors[`${row.id}.key`];
          const valueError = errors[`${row.id}.value`];
          return (
            <li key={row.id} className="kv-row">
              <div className="kv-row__fields">
                <input
                  data-role="key"
                  className="input input--code"
                  aria-label={`Name of ${noun} ${index + 1}`}
                  aria-invalid={keyError ? true : undefined}
                  placeholder={noun === 'header' ? 'Authorization' : 'API_KEY'}
                  value={row.key}
                  disabled={disabled}
                  spellCheck={false}
                  onChange={(e) => update(row.id, { key: e.target.value })}
                />
                {row.secret && row.secretName !== undefined && !row.replacing ? (
                  <StoredSecret
                    name={row.secretName}
                    set={secretNames?.has(row.secretName)}
                    label={name}
                    disabled={disabled}
                    onReplace={() => update(row.id, { value: '', replacing: true })}
                  />
                ) : (
                  <input
                    className="input input--code"
                    aria-label={row.secret ? `Secret value of ${name}` : `Value of ${name}`}
                    aria-invalid={valueError ? true : undefined}
                    type={row.secret ? 'password' : 'text'}
                    autoComplete="off"
                    placeholder={row.secret ? (row.secretName ? 'New value (replaces the stored one)' : 'Value, stored in the keychain') : ''}
                    value={row.value}
                    disabled={disabled}
                    spellCheck={false}
                    onChange={(e) => update(row.id, { value: e.target.value })}
                  />
                )}
                <Switch
                  label="Secret"
                  accessibleName={`${name} is secret`}
                  checked={row.secret}
                  disabled={disabled}
                  onChange={(secret) => update(row.id, secret ? { secret: true } : { secret: false, value: '', secretName: undefined, replacing: false })}
                />
                <button type="button" className="button button--small button--icon" aria-label={`Remove ${name}`} disabled={disabled} onClick={() => onChange(rows.filter((r) => r.id !== row.id))}>
                  ✕
                </button>
              </div>
              {keyError ? <p className="field__error">{keyError}</p> : null}
              {valueError ? <p className="field__error">{valueError}</p> : null}
            </li>
          );
        })}
      </ul>
      <button type="button" className="button button--small" disabled={disabled} onClick={add}>
        Add {noun}
      </button>
    </fieldset>
  );
}

function StoredSecret({ name, set, label, disabled, onReplace }: { name: string; set: boolean | undefined; label: string; disabled: boolean; onReplace: () => void }) {
  return (
    <span className="kv-row__stored">
      <span className={`badge ${set === false ? 'badge--error' : 'badge--ready'}`}>{set === false ? 'Not set' : set ? 'Set' : 'Stored'}</span>
      <span className="muted kv-row__secret-name" title={`In the keychain as ${name}`}>
        <span className="visually-hidden">in the keychain as </span>
        <code>{name}</code>
      </span>
      <button type="button" className="button button--small button--quiet" disabled={disabled} aria-label={`Replace the value of ${label}`} onClick={onReplace}>
        Replace
      </button>
    </span>
  );
}
