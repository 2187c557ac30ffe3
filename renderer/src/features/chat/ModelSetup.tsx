import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ChatStatus, HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { useResult } from '../../lib/use-result';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { ModelPanel } from '../settings/ModelPanel';

/** What the composer says while it is off, and what the setup's button is called. */
export const NO_MODEL_REASON = 'Choose a model above to start chatting.';

/**
 * No model yet: one short paragraph, "Choose a model" opening the model form right here (the
 * same form as Settings), and — when a local Ollama answered — a one-click way to use it. Without
 * a model, tools, resources and prompts still work by hand.
 */
export function ModelSetup({ status, onChanged }: { readonly status: ChatStatus; readonly onChanged: () => void }) {
  const api = useHarbor();
  const selectId = useId();
  const ollama = status.ollama;
  const [model, setModel] = useState(ollama?.models[0] ?? 'llama3.2');
  const [busy, setBusy] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();

  const adoptOllama = async () => {
    if (!ollama) return;
    setBusy(true);
    setError(undefined);
    const result = await api.settings.setModel({
      model: { provider: 'openai-compatible', model, baseURL: `${ollama.url.replace(/\/+$/, '')}/v1`, apiKeyMode: 'env' },
    });
    setBusy(false);
    if (!result.ok) setError(asErrorData(result.error));
    else onChanged();
  };

  return (
    <section className="panel model-setup" aria-labelledby={`${selectId}-title`}>
      <h2 id={`${selectId}-title`}>Chat needs a model</h2>
      <p>Choose the model Harbor talks to: Anthropic, OpenAI, or one on your computer such as Ollama. Tools, resources and prompts work without one, from their pages.</p>
      {ollama ? (
        <div className="model-setup__ollama">
          <p>
            Ollama is running on this computer ({ollama.url}){ollama.models.length ? '' : ', but it has no models yet: run "ollama pull llama3.2" first'}.
          </p>
          {ollama.models.length > 0 ? (
            <div className="actions">
              <label htmlFor={selectId}>Ollama model</label>
              <select id={selectId} className="input model-setup__select" value={model} onChange={(e) => setModel(e.target.value)}>
                {ollama.models.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
              <button type="button" className="button button--primary" disabled={busy} onClick={() => void adoptOllama()}>
                Use Ollama
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
      {choosing ? (
        <ModelForm onSaved={onChanged} />
      ) : (
        <div className="actions">
          <button type="button" className={`button${ollama?.models.length ? '' : ' button--primary'}`} onClick={() => setChoosing(true)}>
            Choose a model
          </button>
        </div>
      )}
      {error ? <ErrorMessage error={error} /> : null}
    </section>
  );
}

/** The Settings page's model form, in place; focus moves to its first field. */
function ModelForm({ onSaved }: { readonly onSaved: () => void }) {
  const api = useHarbor();
  const load = useCallback(() => api.settings.get({}), [api]);
  const [settings, reload] = useResult(load);
  const box = useRef<HTMLDivElement>(null);
  const ready = settings.status === 'ready';
  useEffect(() => {
    if (ready) box.current?.querySelector<HTMLElement>('select, input')?.focus();
  }, [ready]);
  return (
    <div ref={box} className="model-setup__form">
      {settings.status === 'loading' ? <Loading label="Loading the model settings…" /> : null}
      {settings.status === 'error' ? <ErrorMessage error={settings.error} onRetry={reload} /> : null}
      {settings.status === 'ready' ? <ModelPanel settings={settings.value} onSaved={onSaved} inChat /> : null}
    </div>
  );
}
