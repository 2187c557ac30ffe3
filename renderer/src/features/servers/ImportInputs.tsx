import { useId } from 'react';
import type { ImportReportData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

type Input = ImportReportData['inputsReferenced'][number];

interface Props {
  readonly inputs: readonly Input[];
  /** What the person typed so far, by input id. */
  readonly values: Readonly<Record<string, string>>;
  readonly busy: boolean;
  readonly onChange: (id: string, value: string) => void;
  /** Preview again with the values typed. */
  readonly onApply: () => void;
}

/**
 * The values VS Code would ask for when a server starts (its `inputs`), asked for here instead:
 * one field per input that has no default (a password one unechoed; its value goes to the
 * keychain, never into Harbor's file). An input left empty keeps its placeholder, and the servers
 * using it do not start until the value is put in.
 */
export function ImportInputs({ inputs, values, busy, onChange, onApply }: Props) {
  const id = useId();
  const asked = inputs.filter((input) => input.defined && input.filled !== 'default');
  const fromDefaults = inputs.filter((input) => input.filled === 'default');
  const undefinedInputs = inputs.filter((input) => !input.defined);
  if (inputs.length === 0) return null;
  return (
    <>
      <h4>Values the servers ask for</h4>
      {asked.length > 0 ? (
        <form
          className="import-inputs"
          aria-label="Input values"
          onSubmit={(event) => {
            event.preventDefault();
            onApply();
          }}
        >
          <p className="muted">Another app asks for these when a server starts; Harbor asks now. Leave one empty and the servers using it will not start until you put the value in.</p>
          {asked.map((input) => (
            <label key={input.id} className="field">
              <span className="field__label">
                {input.description ? visibleText(input.description) : <code>{visibleText(input.id)}</code>}
                <span className="muted"> (used by {input.servers.map((server) => visibleText(server)).join(', ')})</span>
              </span>
              <input
                className="input"
                id={`${id}-${input.id}`}
                type={input.password ? 'password' : 'text'}
                autoComplete="off"
                spellCheck={false}
                value={values[input.id] ?? ''}
                disabled={busy}
                onChange={(event) => onChange(input.id, event.target.value)}
              />
              {input.password ? <span className="field__hint">Goes to the system keychain; Harbor&apos;s file holds only a reference.</span> : null}
            </label>
          ))}
          <button type="submit" className="button" disabled={busy}>
            Use these values
          </button>
        </form>
      ) : null}
      {fromDefaults.length > 0 ? (
        <p className="muted">Filled from the file&apos;s defaults: {fromDefaults.map((input) => visibleText(input.id)).join(', ')}.</p>
      ) : null}
      {undefinedInputs.length > 0 ? (
        <ul className="import-preview__list" aria-label="Inputs the file does not define">
          {undefinedInputs.map((input) => (
            <li key={input.id}>
              <code>{`\${input:${visibleText(input.id)}}`}</code> (used by {input.servers.map((server) => visibleText(server)).join(', ')}) is not among the file&apos;s inputs: edit the server to put the value in.
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
