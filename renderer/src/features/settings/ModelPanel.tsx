import { useId, useState, type FormEvent } from 'react';
import type { HarborErrorData, ModelProvider, SettingsData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { ModelConnectionTest } from './ModelConnectionTest';
import { RemoveModel } from './RemoveModel';

const PROVIDERS: Record<ModelProvider, { label: string; example: string; env?: string }> = {
  anthropic: { label: 'Anthropic', example: 'claude-sonnet-4-5', env: 'ANTHROPIC_API_KEY' },
  openai: { label: 'OpenAI', example: 'gpt-4.1', env: 'OPENAI_API_KEY' },
  'openai-compatible': { label: 'OpenAI-compatible (Ollama, LM Studio, vLLM…)', example: 'llama3.1' },
};

interface Props {
  readonly settings: SettingsData;
  readonly onSaved: () => void;
  /** Shown in the chat, under its own "Chat needs a model": the page's "No model is set" is not said again. */
  readonly inChat?: boolean;
}

/** The chat model: provider, model, address, and where its key comes from (the keychain, never the file). */
export function ModelPanel({ settings, onSaved, inChat = false }: Props) {
  const api = useHarbor();
  const id = useId();
  const current = settings.model;
  const [provider, setProvider] = useState<ModelProvider>(current?.provider ?? 'anthropic');
  const [model, setModel] = useState(current?.model ?? '');
  const [baseURL, setBaseURL] = useState(current?.baseURL ?? '');
  const [contextWindow, setContextWindow] = useState(current?.contextWindow ? String(current.contextWindow) : '');
  const hasStoredKey = current?.apiKey.kind === 'secret' || current?.apiKey.kind === 'literal';
  const [keyMode, setKeyMode] = useState<'keep' | 'env' | 'set'>(hasStoredKey ? 'keep' : 'env');
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const info = PROVIDERS[provider];

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(undefined);
    setError(undefined);
    const windowTokens = contextWindow.trim() === '' ? undefined : Number(contextWindow);
    const check = !model.trim()
      ? 'Name the model, e.g. ' + info.example + '.'
      : provider === 'openai-compatible' && !baseURL.trim()
        ? 'An OpenAI-compatible model needs its address, e.g. http://127.0.0.1:11434/v1 for Ollama.'
        : windowTokens !== undefined && !(Number.isInteger(windowTokens) && windowTokens > 0)
          ? 'The context window is a whole number of tokens.'
          : keyMode === 'set' && !apiKey.trim()
            ? 'Paste the API key, or choose another option.'
            : undefined;
    setProblem(check);
    if (check) return;
    setBusy(true);
    const result = await api.settings.setModel({
      model: {
        provider,
        model: model.trim(),
        ...(baseURL.trim() ? { baseURL: baseURL.trim() } : {}),
        ...(windowTokens !== undefined ? { contextWindow: windowTokens } : {}),
        apiKeyMode: keyMode,
        ...(keyMode === 'set' ? { apiKey } : {}),
      },
    });
    setBusy(false);
    if (!result.ok) {
      setError(asErrorData(result.error));
      return;
    }
    setApiKey('');
    setKeyMode(result.value.model?.apiKey.kind === 'env' ? 'env' : 'keep');
    setSaved(keyMode === 'set' ? 'Saved. The key is in the system keychain; the configuration file only references it.' : 'Saved.');
    onSaved();
  };

  const remove = async () => {
    setSaved(undefined);
    setError(undefined);
    setBusy(true);
    const result = await api.settings.setModel({ model: null });
    setBusy(false);
    // Removed: the panel says "No model is set" (a quiet line, not a success to celebrate).
    if (!result.ok) setError(asErrorData(result.error));
    else onSaved();
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Model</h2>
      {!current && !inChat ? (
        <p className="muted" role="status">
          No model is set, so chat is off. Choose a provider and model to turn it on.
        </p>
      ) : null}
      <form noValidate onSubmit={(e) => void save(e)}>
        <div className="settings-grid">
          {/* The full row: the OpenAI-compatible label names its servers and must not be cut off. */}
          <div className="field settings-grid__wide">
            <label className="field__label" htmlFor={`${id}-provider`}>
              Provider
            </label>
            <select id={`${id}-provider`} className="input" value={provider} disabled={busy} onChange={(e) => setProvider(e.target.value as ModelProvider)}>
              {(Object.keys(PROVIDERS) as ModelProvider[]).map((p) => (
                <option key={p} value={p}>
                  {PROVIDERS[p].label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-model`}>
              Model
            </label>
            <input id={`${id}-model`} className="input" value={model} placeholder={info.example} disabled={busy} spellCheck={false} onChange={(e) => setModel(e.target.value)} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-base`}>
              Address {provider === 'openai-compatible' ? null : <span className="muted">(optional)</span>}
            </label>
            <input
              id={`${id}-base`}
              className="input input--code"
              type="url"
              value={baseURL}
              placeholder={provider === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : 'the provider\'s own'}
              disabled={busy}
              spellCheck={false}
              onChange={(e) => setBaseURL(e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-window`}>
              Context window, tokens <span className="muted">(optional)</span>
            </label>
            <input
              id={`${id}-window`}
              className="input input--number"
              inputMode="numeric"
              value={contextWindow}
              placeholder={String(settings.defaults.contextWindow)}
              disabled={busy}
              onChange={(e) => setContextWindow(e.target.value)}
            />
          </div>
        </div>
        <fieldset className="settings-radios">
          <legend className="field__label">API key</legend>
          {hasStoredKey ? (
            <label className="schema-form__check">
              <input type="radio" name={`${id}-key`} checked={keyMode === 'keep'} disabled={busy} onChange={() => setKeyMode('keep')} />
              <span>
                Keep the current key{' '}
                {current?.apiKey.kind === 'secret' ? (
                  <>
                    (in the keychain as <code>{current.apiKey.secret}</code>
                    {current.apiKey.set === false ? ' — not set!' : current.apiKey.set ? ' — set' : ''})
                  </>
                ) : (
                  '(written in the configuration file in plain text: set it again to move it to the keychain)'
                )}
              </span>
            </label>
          ) : null}
          <label className="schema-form__check">
            <input type="radio" name={`${id}-key`} checked={keyMode === 'env'} disabled={busy} onChange={() => setKeyMode('env')} />
            <span>{info.env ? `Use the ${info.env} environment variable` : 'No key (a local server usually needs none)'}</span>
          </label>
          <label className="schema-form__check">
            <input type="radio" name={`${id}-key`} checked={keyMode === 'set'} disabled={busy} onChange={() => setKeyMode('set')} />
            <span>Set a key (stored in the system keychain)</span>
          </label>
          {keyMode === 'set' ? (
            <input
              className="input input--code"
              type="password"
              autoComplete="off"
              aria-label="API key"
              value={apiKey}
              disabled={busy}
              spellCheck={false}
              onChange={(e) => setApiKey(e.target.value)}
            />
          ) : null}
        </fieldset>
        {problem ? <p className="field__error">{problem}</p> : null}
        {error ? <ErrorMessage error={error} /> : null}
        {saved ? (
          <p className="notice notice--ok" role="status">
            {saved}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save model'}
          </button>
          {current ? <RemoveModel disabled={busy} onRemove={remove} /> : null}
        </div>
      </form>
      {current ? <ModelConnectionTest disabled={busy} /> : null}
    </section>
  );
}
