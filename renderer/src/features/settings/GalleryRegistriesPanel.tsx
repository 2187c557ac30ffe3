import { useCallback, useId, useState } from 'react';
import type { GallerySettingsData, HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { useResult } from '../../lib/use-result';
import { ErrorMessage } from '../../ui/ErrorMessage';

/**
 * Which MCP Registries the gallery searches. Whether installed servers are sandboxed is the
 * Sandbox panel's switch (one setting, one place).
 */
export function GalleryRegistriesPanel() {
  const api = useHarbor();
  const id = useId();
  const load = useCallback(() => api.gallery.settings({}), [api]);
  const [settings, reload] = useResult(load);
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Gallery</h2>
      {settings.status === 'error' ? <ErrorMessage error={settings.error} onRetry={reload} /> : null}
      {settings.status === 'ready' ? <RegistriesForm settings={settings.value} onSaved={reload} /> : null}
    </section>
  );
}

function RegistriesForm({ settings, onSaved }: { readonly settings: GallerySettingsData; readonly onSaved: () => void }) {
  const api = useHarbor();
  const id = useId();
  const [registries, setRegistries] = useState(settings.registries.join('\n'));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();

  const save = async () => {
    setBusy(true);
    setSaved(false);
    setError(undefined);
    const result = await api.gallery.setSettings({ registries: registries.split('\n').map((line) => line.trim()).filter(Boolean) });
    setBusy(false);
    if (!result.ok) return setError(asErrorData(result.error));
    setSaved(true);
    onSaved();
  };

  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-registries`}>
          MCP Registries the gallery searches (one address per line)
        </label>
        <textarea id={`${id}-registries`} className="input input--code" rows={3} value={registries} disabled={busy} onChange={(e) => setRegistries(e.target.value)} />
        <span className="field__hint">The official one is https://registry.modelcontextprotocol.io. Whether installed servers are sandboxed is the Sandbox panel’s switch.</span>
      </div>
      {error ? <ErrorMessage error={error} /> : null}
      {saved ? (
        <p className="notice notice--ok" role="status">
          Saved.
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="button button--primary" disabled={busy} onClick={() => void save()}>
          {busy ? 'Saving…' : 'Save'}
        </button>
      </div>
    </>
  );
}
