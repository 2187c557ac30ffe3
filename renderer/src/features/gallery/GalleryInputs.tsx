import type { GalleryInputData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { RequiredMark } from '../../ui/RequiredMark';

export type InputValue = string | string[];

const KIND: Record<GalleryInputData['kind'], string> = { env: 'environment variable', argument: 'argument', header: 'header', variable: 'value' };

/** The inputs one way of running a gallery server needs: secrets as password fields, choices as a list. */
export function GalleryInputs({ inputs, values, onChange, idPrefix }: { readonly inputs: readonly GalleryInputData[]; readonly values: Readonly<Record<string, InputValue>>; readonly onChange: (key: string, value: InputValue | undefined) => void; readonly idPrefix: string }) {
  if (inputs.length === 0) return <p className="muted">It needs no settings.</p>;
  return (
    <fieldset className="bundle-settings">
      <legend className="consent__subtitle">What it needs</legend>
      {inputs.map((input) => {
        const id = `${idPrefix}-${input.key}`;
        const value = values[input.key];
        const hint = [input.description ? visibleText(input.description) : '', `(${KIND[input.kind]}${input.secret ? ', kept in the system keychain' : ''})`].filter(Boolean).join(' ');
        return (
          <div key={input.key} className="field">
            <label className="field__label" htmlFor={id}>
              <code>{visibleText(input.key)}</code> <RequiredMark required={input.required} />
            </label>
            {input.choices?.length ? (
              <select id={id} className="input" value={typeof value === 'string' ? value : (input.default ?? '')} onChange={(e) => onChange(input.key, e.target.value || undefined)}>
                {input.required ? null : <option value="">(none)</option>}
                {input.choices.map((choice) => (
                  <option key={choice} value={choice}>
                    {visibleText(choice)}
                  </option>
                ))}
              </select>
            ) : input.repeated ? (
              <textarea
                id={id}
                className="input input--code"
                rows={2}
                placeholder={input.default ?? 'One per line'}
                value={Array.isArray(value) ? value.join('\n') : (value ?? '')}
                onChange={(e) => {
                  const lines = e.target.value.split('\n').filter((line) => line.trim() !== '');
                  onChange(input.key, lines.length ? lines : undefined);
                }}
              />
            ) : (
              <input
                id={id}
                className={`input${input.secret ? '' : ' input--code'}`}
                type={input.secret ? 'password' : 'text'}
                autoComplete="off"
                placeholder={input.placeholder ?? input.default}
                value={typeof value === 'string' ? value : ''}
                onChange={(e) => onChange(input.key, e.target.value === '' ? undefined : e.target.value)}
              />
            )}
            <span className="field__hint">{hint}</span>
          </div>
        );
      })}
    </fieldset>
  );
}
