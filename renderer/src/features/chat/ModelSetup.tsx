import { useId, useState } from 'react';
import type { ChatStatus, HarborErrorData } from '../../../../preload/contract';
import { hrefFor } from '../../app/routes';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';

/**
 * No model yet: the Host's explanation of how to add one, and — when a local Ollama answered —
 * a one-click way to use it. Without a model, tools, resources and prompts still work by hand.
 */
export function ModelSetup({ status, onChanged }: { readonly status: ChatStatus; readonly onChanged: () => void }) {
  const api = useHarbor();
  const selectId = useId();
  const ollama = status.ollama;
  const [model, setModel] = useState(ollama?.models[0] ?? 'llama3.2');
  const [busy, setBusy] = useState(false);
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
      <h2 id={`${selectId}-title`}>Add a model to chat</h2>
      <pre className="model-setup__help">{status.help ?? 'No chat model is configured. Add one in Settings.'}</pre>
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
      <p>
        <a href={hrefFor('settings')}>Set up a model in Settings</a>
      </p>
      {error ? <ErrorMessage error={error} /> : null}
    </section>
  );
}
