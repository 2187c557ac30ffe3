import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { CatalogView, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { fromResult, type LoadState } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { Modal } from '../consent/Modal';
import type { Attachment } from './chat-controller';

interface Props {
  readonly onAttach: (attachment: Attachment) => void;
  readonly onClose: () => void;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/**
 * Resources are the application's to give the model, not the model's to take: the person picks
 * one of a server's resources (or types a URI), and its text goes with their next message.
 */
export function AttachDialog({ onAttach, onClose }: Props) {
  const api = useHarbor();
  const titleId = useId();
  const selectId = useId();
  const uriId = useId();
  const [servers, setServers] = useState<LoadState<ServerSummary[]>>({ status: 'loading' });
  const [server, setServer] = useState('');
  const [catalog, setCatalog] = useState<LoadState<CatalogView> | undefined>();
  const [uri, setUri] = useState('');

  useEffect(() => {
    let live = true;
    void api.servers.list({}).then((result) => {
      if (!live) return;
      const state = fromResult(result);
      if (state.status !== 'ready') return setServers(state);
      const usable = state.value.filter((s) => s.enabled);
      setServers({ status: 'ready', value: usable });
      const first = usable.find((s) => s.state.kind === 'ready' && s.counts.resources + s.counts.resourceTemplates > 0) ?? usable[0];
      if (first) setServer(first.name);
    });
    return () => {
      live = false;
    };
  }, [api]);

  const loadCatalog = useCallback(
    (name: string) => {
      setCatalog({ status: 'loading' });
      void api.catalog.get({ name }).then((result) => setCatalog(fromResult(result)));
    },
    [api],
  );

  useEffect(() => {
    if (!server) return;
    let live = true;
    void api.catalog.get({ name: server }).then((result) => {
      if (live) setCatalog(fromResult(result));
    });
    return () => {
      live = false;
    };
  }, [api, server]);

  const attachTyped = (event: FormEvent) => {
    event.preventDefault();
    if (server && uri.trim()) onAttach({ server, uri: uri.trim(), label: uri.trim() });
  };

  return (
    <Modal labelledBy={titleId} onCancel={onClose} className="attach-dialog">
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          Attach a resource
        </h2>
        <button type="button" className="modal__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="modal__body">
        <p className="consent__lead">Its text goes to the model with your next message. You choose what it sees.</p>
        {servers.status === 'loading' ? <Loading label="Loading servers…" /> : null}
        {servers.status === 'error' ? <ErrorMessage error={servers.error} /> : null}
        {servers.status === 'ready' && servers.value.length === 0 ? <p className="muted">No servers are enabled.</p> : null}
        {servers.status === 'ready' && servers.value.length > 0 ? (
          <>
            <div className="schema-form__field">
              <label htmlFor={selectId} className="schema-form__label">
                Server
              </label>
              <select id={selectId} className="input" value={server} onChange={(e) => setServer(e.target.value)}>
                {servers.value.map((s) => (
                  <option key={s.name} value={s.name}>
                    {s.name}
                    {s.state.kind === 'ready' ? '' : ` (${s.state.kind})`}
                  </option>
                ))}
              </select>
            </div>
            {catalog?.status === 'loading' ? <Loading label={`Loading ${server}'s resources…`} /> : null}
            {catalog?.status === 'error' ? <ErrorMessage error={catalog.error} onRetry={() => loadCatalog(server)} /> : null}
            {catalog?.status === 'ready' ? (
              catalog.value.resources.length === 0 ? (
                <p className="muted">{server} lists no resources{catalog.value.resourceTemplates.length ? ' (it has templates: type a URI below)' : ''}.</p>
              ) : (
                <ul className="attach-list" aria-label={`Resources of ${server}`}>
                  {catalog.value.resources.map((r) => {
                    const resourceUri = str(r.uri) ?? '';
                    const label = str(r.title) ?? str(r.name) ?? resourceUri;
                    const mimeType = str(r.mimeType);
                    return (
                      <li key={resourceUri} className="attach-list__item">
                        <div className="attach-list__text">
                          <strong>{label}</strong> <code>{resourceUri}</code>
                          {str(r.description) ? <p className="muted">{str(r.description)}</p> : null}
                        </div>
                        <button
                          type="button"
                          className="button button--small"
                          aria-label={`Attach ${label}`}
                          onClick={() => onAttach({ server, uri: resourceUri, label, ...(mimeType ? { mimeType } : {}) })}
                        >
                          Attach
                        </button>
                      </li>
                    );
                  })}
                </ul>
              )
            ) : null}
            <form className="attach-uri" onSubmit={attachTyped}>
              <label htmlFor={uriId} className="schema-form__label">
                Or a resource URI
              </label>
              <div className="attach-uri__row">
                <input id={uriId} className="input" value={uri} placeholder="e.g. fixture://item/42" onChange={(e) => setUri(e.target.value)} />
                <button type="submit" className="button" disabled={!uri.trim() || !server}>
                  Attach URI
                </button>
              </div>
            </form>
          </>
        ) : null}
      </div>
    </Modal>
  );
}
