import { useId, useState } from 'react';
import { useCompletions, type CompletionRef } from '../../lib/use-completions';
import { RequiredMark } from '../../ui/RequiredMark';

interface Props {
  readonly server: string;
  readonly completionRef: CompletionRef;
  readonly name: string;
  readonly label: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** The other arguments filled so far (servers may narrow suggestions with them). */
  readonly context?: Readonly<Record<string, string>>;
  readonly error?: string;
  readonly disabled?: boolean;
}

/**
 * A text argument with the server's completion suggestions (completion/complete), asked for
 * once the field is used, after typing pauses. Suggestions are buttons under the input: click
 * (or Enter on one) fills it.
 */
export function CompletingInput({ server, completionRef, name, label, description, required, value, onChange, context, error, disabled }: Props) {
  const id = useId();
  const [asked, setAsked] = useState(false);
  const suggestions = useCompletions({ server, ref: completionRef, name, value, ...(context ? { context } : {}), enabled: asked, limit: 12 });
  const hintId = description ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
        <RequiredMark required={required} />
      </label>
      <input
        id={id}
        className="input"
        value={value}
        disabled={disabled}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        onFocus={() => setAsked(true)}
        onChange={(e) => {
          setAsked(true);
          onChange(e.target.value);
        }}
      />
      {description ? (
        <p className="field__hint" id={hintId}>
          {description}
        </p>
      ) : null}
      {errorId ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
      {suggestions.values.length > 0 ? (
        <ul className="suggestions" aria-label={`Suggestions for ${label}`}>
          {suggestions.values.map((s) => (
            <li key={s}>
              <button type="button" className="button button--small" disabled={disabled} onClick={() => onChange(s)}>
                {s}
              </button>
            </li>
          ))}
          {suggestions.hasMore ? <li className="muted">…and more: keep typing to narrow them.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
