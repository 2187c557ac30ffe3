import { useEffect, useId, useRef, useState } from 'react';
import type { CommandRequest } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';

type Ref = CommandRequest<'completion.complete'>['ref'];

interface Props {
  readonly server: string;
  readonly completionRef: Ref;
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

const DEBOUNCE_MS = 250;

/**
 * A text argument with the server's completion suggestions (completion/complete), asked for
 * after typing pauses. Suggestions are buttons under the input: click (or Enter on one) fills it.
 */
export function CompletingInput({ server, completionRef, name, label, description, required, value, onChange, context, error, disabled }: Props) {
  const api = useHarbor();
  const id = useId();
  const [asked, setAsked] = useState(false);
  const [suggestions, setSuggestions] = useState<{ for: string; values: string[]; hasMore: boolean } | undefined>();
  const contextKey = JSON.stringify(context ?? {});
  const refKey = JSON.stringify(completionRef);
  const latest = useRef(0);

  useEffect(() => {
    if (!asked) return;
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      const ctx = JSON.parse(contextKey) as Record<string, string>;
      void api.completion
        .complete({ server, ref: JSON.parse(refKey) as Ref, argument: { name, value }, ...(Object.keys(ctx).length ? { context: ctx } : {}) })
        .then((result) => {
          // Only the answer to the newest question counts; a server without completions just offers none.
          if (ticket !== latest.current) return;
          setSuggestions(result.ok ? { for: value, values: result.value.values.slice(0, 12), hasMore: result.value.hasMore === true || result.value.values.length > 12 } : undefined);
        });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, asked, server, refKey, name, value, contextKey]);

  const shown = suggestions && suggestions.values.filter((v) => v !== value);
  const hintId = description ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
        {required ? (
          <span className="schema-form__required">
            <span aria-hidden="true"> *</span>
            <span className="visually-hidden"> (required)</span>
          </span>
        ) : null}
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
      {shown && shown.length > 0 ? (
        <ul className="suggestions" aria-label={`Suggestions for ${label}`}>
          {shown.map((s) => (
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
