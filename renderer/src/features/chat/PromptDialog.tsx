import { useId, useState, type FormEvent } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { useCompletions } from '../../lib/use-completions';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { RequiredMark } from '../../ui/RequiredMark';
import { Modal } from '../consent/Modal';
import { promptText, type PromptArgument, type PromptCommand } from './prompt-commands';
import '../../ui/schema-form/schema-form.css';

interface Props {
  readonly prompt: PromptCommand;
  /** The rendered prompt, to put in the message box. */
  readonly onUse: (text: string) => void;
  readonly onClose: () => void;
}

/**
 * A prompt's arguments (prompts are the person's to run): one field per argument, with the
 * server's completion suggestions as the person types, then the rendered text goes into the
 * message box to read (and edit) before sending.
 */
export function PromptDialog({ prompt, onUse, onClose }: Props) {
  const api = useHarbor();
  const titleId = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<readonly string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const absent = prompt.arguments.filter((a) => a.required && !values[a.name]?.trim()).map((a) => a.name);
    setMissing(absent);
    if (absent.length > 0) {
      document.getElementById(`${titleId}-${absent[0]}`)?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
    const result = await api.prompts.get({ server: prompt.server, name: prompt.name, ...(Object.keys(args).length ? { arguments: args } : {}) });
    setBusy(false);
    if (!result.ok) setError(asErrorData(result.error));
    else onUse(promptText(result.value));
  };

  return (
    <Modal labelledBy={titleId} onCancel={onClose} className="prompt-dialog">
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          {prompt.command}
        </h2>
        <button type="button" className="modal__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <form className="modal__body" noValidate onSubmit={(e) => void submit(e)} id={`${titleId}-form`}>
        <p className="consent__lead">
          {prompt.title ? <strong>{prompt.title}. </strong> : null}
          {prompt.description ?? `A prompt from ${prompt.server}.`}
        </p>
        {prompt.arguments.length === 0 ? <p className="muted">This prompt takes no arguments.</p> : null}
        {prompt.arguments.map((argument) => (
          <ArgumentField
            key={argument.name}
            id={`${titleId}-${argument.name}`}
            prompt={prompt}
            argument={argument}
            value={values[argument.name] ?? ''}
            values={values}
            missing={missing.includes(argument.name)}
            onChange={(value) => setValues((v) => ({ ...v, [argument.name]: value }))}
          />
        ))}
        {error ? <ErrorMessage error={error} /> : null}
      </form>
      <footer className="modal__actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" form={`${titleId}-form`} className="button button--primary" disabled={busy}>
          {busy ? 'Getting the prompt…' : 'Use prompt'}
        </button>
      </footer>
    </Modal>
  );
}

interface FieldProps {
  readonly id: string;
  readonly prompt: PromptCommand;
  readonly argument: PromptArgument;
  readonly value: string;
  readonly values: Record<string, string>;
  readonly missing: boolean;
  readonly onChange: (value: string) => void;
}

function ArgumentField({ id, prompt, argument, value, values, missing, onChange }: FieldProps) {
  // completion/complete as the person types (debounced); servers without completions answer nothing.
  const context = Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== argument.name && v !== ''));
  const suggestions = useCompletions({
    server: prompt.server,
    ref: { type: 'ref/prompt', name: prompt.name },
    name: argument.name,
    value,
    context,
    debounceMs: 200,
    limit: 8,
  }).values;

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="schema-form__field prompt-field">
      <label htmlFor={id} className="schema-form__label">
        {argument.title ?? argument.name}
        <RequiredMark required={argument.required} />
      </label>
      <input
        id={id}
        className="input"
        value={value}
        autoComplete="off"
        aria-invalid={missing || undefined}
        aria-describedby={[argument.description ? hintId : '', missing ? errorId : ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {argument.description ? (
        <p className="schema-form__hint" id={hintId}>
          {argument.description}
        </p>
      ) : null}
      {missing ? (
        <p className="schema-form__error" id={errorId}>
          Fill in {argument.title ?? argument.name}.
        </p>
      ) : null}
      {suggestions.length > 0 ? (
        <div className="prompt-field__suggestions" role="group" aria-label={`Suggestions for ${argument.title ?? argument.name}`}>
          {suggestions.map((s) => (
            <button key={s} type="button" className="button button--small" onClick={() => onChange(s)}>
              {s}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
