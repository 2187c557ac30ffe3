import { useEffect, useId, useState } from 'react';
import { useHarbor } from '../../app/services';
import { rowId, type ArgRow } from './server-form-model';

type Extra = Readonly<Record<string, unknown>>;
type SamplingPolicy = 'ask' | 'allow' | 'deny';

interface Props {
  /** The entry's fields the main form does not manage; roots and sampling live here. */
  readonly extra: Extra;
  readonly disabled: boolean;
  readonly onChange: (extra: Extra) => void;
}

const POLICY_HINT: Record<SamplingPolicy, string> = {
  ask: 'You review each request and the model’s answer before it goes back.',
  allow: 'The model answers without asking you (within the server’s rate limit).',
  deny: 'The server is not offered sampling at all.',
};

/** Sets or removes one field of `extra`. */
function withField(extra: Extra, key: string, value: unknown): Extra {
  const { [key]: _old, ...rest } = extra;
  return value === undefined ? rest : { ...rest, [key]: value };
}

/**
 * What the server may ask of Harbor: the folders it may work in (roots, sent as file:// URIs;
 * Harbor checks each is an existing folder when saving) and whether it may ask the model
 * (sampling). The desktop app picks folders with the system dialog; a browser types paths.
 */
export function CapabilityFields({ extra, disabled, onChange }: Props) {
  const api = useHarbor();
  const id = useId();
  const [rows, setRows] = useState<ArgRow[]>(() => (Array.isArray(extra.roots) ? extra.roots.map((value) => ({ id: rowId(), value: String(value) })) : []));
  const [picker, setPicker] = useState(false);
  const policy: SamplingPolicy = extra.sampling === 'allow' || extra.sampling === 'deny' ? extra.sampling : 'ask';

  useEffect(() => {
    let live = true;
    void api.app.info({}).then((result) => {
      if (live && result.ok) setPicker(result.value.mode === 'electron');
    });
    return () => {
      live = false;
    };
  }, [api]);

  const updateRows = (next: ArgRow[]) => {
    setRows(next);
    const roots = next.map((r) => r.value.trim()).filter(Boolean);
    onChange(withField(extra, 'roots', roots.length > 0 ? roots : undefined));
  };

  const pick = async () => {
    const result = await api.app.pickFolder({});
    if (result.ok && result.value.path) updateRows([...rows, { id: rowId(), value: result.value.path }]);
  };

  return (
    <>
      <fieldset className="rows-editor">
        <legend>Roots (folders the server may work in)</legend>
        {rows.length === 0 ? <p className="muted rows-editor__empty">None: the server is not offered roots.</p> : null}
        <ol className="rows-editor__list" aria-label="Roots">
          {rows.map((row, index) => (
            <li key={row.id} className="rows-editor__row">
              <input
                className="input input--code"
                aria-label={`Root ${index + 1}`}
                value={row.value}
                disabled={disabled}
                spellCheck={false}
                placeholder="/home/me/project or ~/project"
                onChange={(e) => updateRows(rows.map((r) => (r.id === row.id ? { ...r, value: e.target.value } : r)))}
              />
              <button
                type="button"
                className="button button--small button--icon"
                aria-label={`Remove root ${index + 1}`}
                disabled={disabled}
                onClick={() => updateRows(rows.filter((r) => r.id !== row.id))}
              >
                ✕
              </button>
            </li>
          ))}
        </ol>
        <div className="actions">
          {picker ? (
            <button type="button" className="button button--small" disabled={disabled} onClick={() => void pick()}>
              Choose a folder…
            </button>
          ) : null}
          <button type="button" className="button button--small" disabled={disabled} onClick={() => setRows([...rows, { id: rowId(), value: '' }])}>
            Add a path
          </button>
        </div>
        <p className="field__hint">Absolute paths, file:// URIs or ~/ paths of existing folders.</p>
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-sampling`}>
          When the server asks the model (sampling)
        </label>
        <select
          id={`${id}-sampling`}
          className="input"
          value={policy}
          disabled={disabled}
          aria-describedby={`${id}-sampling-hint`}
          onChange={(e) => onChange(withField(extra, 'sampling', e.target.value === 'ask' ? undefined : e.target.value))}
        >
          <option value="ask">Ask me each time</option>
          <option value="allow">Allow</option>
          <option value="deny">Never (do not offer it)</option>
        </select>
        <p className="field__hint" id={`${id}-sampling-hint`}>
          {POLICY_HINT[policy]}
        </p>
      </div>
    </>
  );
}
