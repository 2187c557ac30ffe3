import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { CompletingInput } from '../catalog/CompletingInput';
import { ContentBlock } from '../catalog/ContentView';
import { StopButton, useStoppable } from '../catalog/stoppable';
import type { PromptItem } from './prompt-item';

/** A prompt's arguments (with completion suggestions), then the messages the server makes of them (prompts/get; Stop cancels). */
export function PromptForm({ server, prompt, onClose }: { readonly server: string; readonly prompt: PromptItem; readonly onClose: () => void }) {
  const api = useHarbor();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  const stoppable = useStoppable();
  const busy = stoppable.running;
  const [result, setResult] = useState<{ description?: string; messages: unknown[] } | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  useEffect(() => heading.current?.focus(), []);
  const missing = prompt.arguments.filter((a) => a.required && !values[a.name]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (missing.length > 0) return;
    setError(undefined);
    const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
    const got = await stoppable.run((requestId) => api.prompts.get({ server, name: prompt.name, ...(Object.keys(args).length ? { arguments: args } : {}), requestId }));
    if (!got.ok) {
      setResult(undefined);
      setError(asErrorData(got.error));
      return;
    }
    setResult({
      ...(typeof got.value.description === 'string' ? { description: got.value.description } : {}),
      messages: Array.isArray(got.value.messages) ? got.value.messages : [],
    });
  };

  return (
    <section className="panel detail" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {prompt.title ?? prompt.name}
      </h2>
      <p className="muted">
        <code>{prompt.name}</code> on {server}
      </p>
      {prompt.description ? <p className="detail__desc">{prompt.description}</p> : null}
      <form noValidate onSubmit={(e) => void submit(e)}>
        {prompt.arguments.length === 0 ? <p className="muted">This prompt takes no arguments.</p> : null}
        {prompt.arguments.map((arg) => (
          <CompletingInput
            key={arg.name}
            server={server}
            completionRef={{ type: 'ref/prompt', name: prompt.name }}
            name={arg.name}
            label={arg.title ?? arg.name}
            {...(arg.description ? { description: arg.description } : {})}
            required={arg.required}
            value={values[arg.name] ?? ''}
            context={values}
            disabled={busy}
            {...(tried && arg.required && !values[arg.name] ? { error: 'Required.' } : {})}
            onChange={(value) => setValues((v) => ({ ...v, [arg.name]: value }))}
          />
        ))}
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Getting…' : 'Show messages'}
          </button>
          <StopButton stoppable={stoppable} />
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
      {error ? <ErrorMessage error={error} /> : null}
      {result ? (
        <div className="detail__result" role="region" aria-label="Prompt messages">
          <h3>Messages</h3>
          {result.description ? <p className="muted">{result.description}</p> : null}
          {result.messages.length === 0 ? <p className="muted">The server returned no messages.</p> : null}
          {result.messages.map((message, i) => {
            const m = (typeof message === 'object' && message !== null ? message : {}) as { role?: unknown; content?: unknown };
            return (
              <div key={i} className="prompt-message">
                <p className="prompt-message__role">{m.role === 'assistant' ? 'Assistant' : 'User'}</p>
                <ContentBlock block={m.content} />
              </div>
            );
          })}
        </div>
      ) : null}
    </section>
  );
}
