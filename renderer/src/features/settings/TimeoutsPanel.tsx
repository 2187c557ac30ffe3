import { useId, useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { useRegistry } from '../servers/use-registry';

/** How long Harbor waits for each server's answers (the registry's timeoutMs per server). */
export function TimeoutsPanel({ defaultMs }: { readonly defaultMs: number }) {
  const api = useHarbor();
  const id = useId();
  const [registry] = useRegistry();
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  const save = async (name: string, config: Record<string, unknown>) => {
    const text = (drafts[name] ?? '').trim();
    const seconds = Number(text);
    if (text !== '' && !(Number.isFinite(seconds) && seconds > 0)) {
      setProblem(`${name}: a number of seconds above 0, or empty for the default.`);
      return;
    }
    setProblem(undefined);
    setBusy(name);
    setError(undefined);
    const next: Record<string, unknown> = { ...config };
    if (text === '') delete next.timeoutMs;
    else next.timeoutMs = Math.round(seconds * 1000);
    const result = await api.servers.update({ name, config: next });
    setBusy(undefined);
    if (!result.ok) setError(asErrorData(result.error));
    else
      setDrafts((d) => {
        const copy = { ...d };
        delete copy[name];
        return copy;
      });
  };

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Timeouts</h2>
      <p className="field__hint">How long Harbor waits for a server to answer one request before giving up. Empty: {defaultMs / 1000} seconds. Changing it does not restart the server.</p>
      {registry.status === 'loading' ? <Loading label="Loading…" /> : null}
      {registry.status === 'error' ? <ErrorMessage error={registry.error} /> : null}
      {registry.status === 'ready' && registry.value.servers.length === 0 ? <p className="muted">No servers yet.</p> : null}
      {registry.status === 'ready' && registry.value.servers.length > 0 ? (
        <ul className="settings-list" aria-label="Timeouts per server">
          {registry.value.servers.map(({ name, config }) => {
            const current = typeof config.timeoutMs === 'number' ? String(config.timeoutMs / 1000) : '';
            const value = drafts[name] ?? current;
            return (
              <li key={name}>
                <label htmlFor={`${id}-${name}`}>
                  <strong>{name}</strong>
                </label>
                <span className="settings-list__controls">
                  <input
                    id={`${id}-${name}`}
                    className="input input--number"
                    inputMode="decimal"
                    placeholder={String(defaultMs / 1000)}
                    value={value}
                    disabled={busy === name}
                    onChange={(e) => setDrafts((d) => ({ ...d, [name]: e.target.value }))}
                  />
                  <span className="muted">s</span>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={`Save the timeout of ${name}`}
                    disabled={busy !== undefined || value === current}
                    onClick={() => void save(name, config)}
                  >
                    {busy === name ? 'Saving…' : 'Save'}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      {problem ? <p className="field__error">{problem}</p> : null}
      {error ? <ErrorMessage error={error} /> : null}
    </section>
  );
}
