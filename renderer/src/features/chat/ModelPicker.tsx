import { useId, useState } from 'react';
import type { ChatStatus, HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';

/**
 * The model the chat uses (the registry's "model" entry). When the endpoint lists other models
 * (an OpenAI-compatible server), they can be picked here; provider and key are changed in Settings
 * (the header's menu links there).
 */
export function ModelPicker({ status, onChanged }: { readonly status: ChatStatus; readonly onChanged: () => void }) {
  const api = useHarbor();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();
  const current = status.model?.model ?? '';
  const options = [...new Set([current, ...(status.models ?? [])])].filter(Boolean);

  const choose = async (model: string) => {
    if (model === current) return;
    setBusy(true);
    setError(undefined);
    const settings = await api.settings.get({});
    const configured = settings.ok ? settings.value.model : undefined;
    if (!configured) {
      setBusy(false);
      setError(settings.ok ? { code: 'MODEL_NOT_CONFIGURED', message: 'No model is configured: set one in Settings.' } : asErrorData(settings.error));
      return;
    }
    const result = await api.settings.setModel({
      model: {
        provider: configured.provider,
        model,
        ...(configured.baseURL ? { baseURL: configured.baseURL } : {}),
        ...(configured.contextWindow ? { contextWindow: configured.contextWindow } : {}),
        apiKeyMode: 'keep',
      },
    });
    setBusy(false);
    if (!result.ok) setError(asErrorData(result.error));
    else onChanged();
  };

  return (
    <div className="model-picker">
      <select
        id={id}
        className="input model-picker__select"
        aria-label="Model"
        title={`Model: ${current} (${status.model?.provider ?? ''})`}
        value={current}
        disabled={busy || options.length < 2}
        onChange={(e) => void choose(e.target.value)}
      >
        {options.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
      {error ? (
        <p className="model-picker__error" role="alert">
          {error.message}
        </p>
      ) : null}
    </div>
  );
}
