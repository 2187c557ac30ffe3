import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { GalleryOptionData, GalleryServerData, HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { useResult } from '../../lib/use-result';
import { visibleText } from '../../lib/visible-text';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { BundlePicker } from '../bundles/BundlePicker';
import { showBundleReview } from '../bundles/review-queue';
import { GalleryInstallDialog } from './GalleryInstallDialog';
import { GalleryResult } from './GalleryResult';
import './gallery.css';

interface Results {
  readonly registry: string;
  readonly servers: GalleryServerData[];
  readonly nextCursor?: string;
}

/** The MCP Registry gallery: search the registries in Settings, see what each server needs, install it; or install a bundle file. */
export function GalleryPage() {
  const api = useHarbor();
  const id = useId();
  const loadSettings = useCallback(() => api.gallery.settings({}), [api]);
  const [settings] = useResult(loadSettings);
  const registries = settings.status === 'ready' ? settings.value.registries : [];
  const [registry, setRegistry] = useState('');
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [installing, setInstalling] = useState<{ server: GalleryServerData; option: GalleryOptionData } | undefined>();
  const [installed, setInstalled] = useState<string | undefined>();
  const chosen = registry || registries[0] || '';

  const search = useCallback(
    async (cursor?: string) => {
      if (!chosen) return;
      setBusy(true);
      setError(undefined);
      const result = await api.gallery.search({ registry: chosen, ...(query.trim() ? { query: query.trim() } : {}), ...(cursor ? { cursor } : {}) });
      setBusy(false);
      if (!result.ok) return setError(asErrorData(result.error));
      setResults((before) => ({ ...result.value, servers: cursor && before ? [...before.servers, ...result.value.servers] : result.value.servers }));
    },
    [api, chosen, query],
  );

  // The first page once the registries are known.
  const searchedOnce = useRef(false);
  useEffect(() => {
    if (chosen && !searchedOnce.current) {
      searchedOnce.current = true;
      void search();
    }
  }, [chosen, search]);

  const install = async (server: GalleryServerData, option: GalleryOptionData) => {
    setInstalled(undefined);
    if (option.type !== 'mcpb') return setInstalling({ server, option });
    setBusy(true);
    const review = await api.gallery.fetchBundle({ registry: results?.registry ?? chosen, server: server.name, version: server.version, option: option.index });
    setBusy(false);
    if (review.ok) showBundleReview(review.value);
    else setError(asErrorData(review.error));
  };

  return (
    <>
      <PageHeader title="Gallery">Find servers in the MCP Registry and install them, or install an MCP bundle file. Harbor shows exactly what a server will run before it runs.</PageHeader>
      <BundlePicker />
      <form
        className="gallery-search toolbar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <label className="visually-hidden" htmlFor={`${id}-query`}>
          Search the registry
        </label>
        <input id={`${id}-query`} className="input" type="search" placeholder="Search servers by name" value={query} onChange={(e) => setQuery(e.target.value)} />
        {registries.length > 1 ? (
          <select className="input" aria-label="Registry" value={chosen} onChange={(e) => setRegistry(e.target.value)}>
            {registries.map((url) => (
              <option key={url} value={url}>
                {url}
              </option>
            ))}
          </select>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy || !chosen}>
          Search
        </button>
      </form>
      {chosen ? <p className="muted">Registry: {visibleText(chosen)} (change the list in Settings)</p> : null}
      {settings.status === 'error' ? <ErrorMessage error={settings.error} /> : null}
      {error ? <ErrorMessage error={error} onRetry={() => void search()} /> : null}
      {installed ? <p className="notice notice--ok">Installed “{visibleText(installed)}”. Harbor asks before it first runs.</p> : null}
      {busy && !results ? <Loading label="Searching the registry…" /> : null}
      {results ? (
        <>
          <ul className="gallery-results" aria-label="Servers">
            {results.servers.map((server) => (
              <GalleryResult key={`${server.name}@${server.version}`} server={server} onInstall={(option) => void install(server, option)} />
            ))}
          </ul>
          {results.servers.length === 0 ? <p className="muted">No servers match.</p> : null}
          {results.nextCursor ? (
            <button type="button" className="button" disabled={busy} onClick={() => void search(results.nextCursor)}>
              {busy ? 'Loading…' : 'More'}
            </button>
          ) : null}
        </>
      ) : null}
      {installing ? (
        <GalleryInstallDialog
          registry={results?.registry ?? chosen}
          server={installing.server}
          option={installing.option}
          onClose={(name) => {
            setInstalling(undefined);
            if (name) setInstalled(name);
          }}
        />
      ) : null}
    </>
  );
}
