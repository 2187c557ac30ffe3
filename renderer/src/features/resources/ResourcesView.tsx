import { useEffect, useMemo, useState } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { VirtualList } from '../../ui/VirtualList';
import { matches } from '../catalog/CatalogFrame';
import { NotReady } from '../catalog/NotReady';
import { useCatalog } from '../catalog/use-catalog';
import { useSelection } from '../catalog/use-selection';
import { ReadResource } from './ReadResource';
import { TemplateForm } from './TemplateForm';
import { useSubscriptions } from './use-subscriptions';
import { formatTime } from '../../lib/time-format';

interface ResourceItem {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

interface TemplateItem {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

interface Props {
  readonly server: ServerSummary;
  readonly search: string;
  /** One group among all servers': a short line when nothing matches the search. */
  readonly grouped?: boolean;
}

/** One server's resources and resource templates; read one (kept across reloads), or fill a template and read the result. */
export function ResourcesView({ server, search, grouped = false }: Props) {
  const api = useHarbor();
  const [catalog, reload] = useCatalog(server, ['resources', 'resourceTemplates']);
  const [readingUri, setReadingUri] = useSelection('resources', server.name);
  // Read again: a new generation remounts the reader.
  const [generation, setGeneration] = useState(0);
  const reading = readingUri === undefined ? undefined : { uri: readingUri, generation };
  const [template, setTemplate] = useState<TemplateItem | undefined>();
  const [updated, setUpdated] = useState(false);
  const subscriptions = useSubscriptions(server.name, server.state.kind === 'ready');

  const resources = useMemo<ResourceItem[]>(
    () =>
      catalog?.status === 'ready'
        ? catalog.value.resources.flatMap((r) => {
            const uri = text(r.uri);
            if (!uri) return [];
            return [{ uri, name: text(r.name) ?? uri, ...(text(r.title) ? { title: text(r.title)! } : {}), ...(text(r.description) ? { description: text(r.description)! } : {}), ...(text(r.mimeType) ? { mimeType: text(r.mimeType)! } : {}) }];
          })
        : [],
    [catalog],
  );
  const templates = useMemo<TemplateItem[]>(
    () =>
      catalog?.status === 'ready'
        ? catalog.value.resourceTemplates.flatMap((t) => {
            const uriTemplate = text(t.uriTemplate);
            if (!uriTemplate) return [];
            return [{ uriTemplate, name: text(t.name) ?? uriTemplate, ...(text(t.title) ? { title: text(t.title)! } : {}), ...(text(t.description) ? { description: text(t.description)! } : {}) }];
          })
        : [],
    [catalog],
  );
  const shownResources = useMemo(() => resources.filter((r) => matches(search, r.name, r.title, r.uri, r.description)), [resources, search]);
  const shownTemplates = useMemo(() => templates.filter((t) => matches(search, t.name, t.title, t.uriTemplate, t.description)), [templates, search]);

  // The resource on screen changed on the server: a subscribed one is read again at once and
  // shown as changed; any other says so and offers to read it again.
  const subscribed = reading ? subscriptions.uris.has(reading.uri) : false;
  useEffect(() => {
    if (readingUri === undefined) return;
    return api.on.servers.changed((event) => {
      if (event.name !== server.name || event.reason !== 'resourceUpdated' || event.uri !== readingUri) return;
      // Subscribed: read it again at once (a new generation remounts the reader).
      if (subscribed) setGeneration((g) => g + 1);
      else setUpdated(true);
    });
  }, [api, server.name, readingUri, subscribed]);

  const read = (uri: string) => {
    setUpdated(false);
    setTemplate(undefined);
    setReadingUri(uri);
    setGeneration((g) => g + 1);
    window.scrollTo({ top: 0 });
  };

  if (!catalog) return <NotReady servers={[server]} noun="resources" />;
  if (catalog.status === 'loading') return <Loading label={`Loading the resources of ${server.name}…`} />;
  if (catalog.status === 'error') return <ErrorMessage error={catalog.error} onRetry={reload} />;
  if (grouped && search.trim() && shownResources.length === 0 && shownTemplates.length === 0 && !reading && !template) return <p className="muted">No resource matches.</p>;
  return (
    <>
      {template ? <TemplateForm key={template.uriTemplate} server={server.name} template={template} onRead={read} onClose={() => setTemplate(undefined)} /> : null}
      {reading ? (
        <ReadResource
          key={`${reading.uri}#${reading.generation}`}
          server={server.name}
          uri={reading.uri}
          updated={updated}
          {...(subscribed && subscriptions.changed.has(reading.uri) ? { changedAt: subscriptions.changed.get(reading.uri)! } : {})}
          onReadAgain={() => read(reading.uri)}
          onClose={() => setReadingUri(undefined)}
        />
      ) : null}
      {subscriptions.error ? <ErrorMessage error={subscriptions.error} /> : null}
      {resources.length === 0 && templates.length === 0 ? <EmptyState title={`${server.name} offers no resources`} /> : null}
      {resources.length > 0 ? (
        <section aria-label={`Resources of ${server.name}`}>
          <h2 className="section-title">
            Resources <span className="muted">({shownResources.length === resources.length ? resources.length : `${shownResources.length} of ${resources.length}`})</span>
          </h2>
          {shownResources.length === 0 ? (
            <p className="muted">No resource matches your search.</p>
          ) : (
            <VirtualList
              items={shownResources}
              label={`Resources of ${server.name}`}
              className="vlist--short"
              estimateSize={64}
              getKey={(r) => r.uri}
              renderItem={(r) => (
                <div className={`item-row${reading?.uri === r.uri ? ' item-row--selected' : ''}`}>
                  <div className="item-row__main">
                    <p className="item-row__name">
                      {r.title ?? r.name}
                      {r.mimeType ? <span className="item-row__title">{r.mimeType}</span> : null}
                    </p>
                    <p className="item-row__desc">
                      <code>{r.uri}</code>
                      {r.description ? ` — ${r.description}` : ''}
                    </p>
                  </div>
                  <div className="item-row__side">
                    {subscriptions.uris.has(r.uri) && subscriptions.changed.has(r.uri) ? (
                      <span className="badge">changed {formatTime(subscriptions.changed.get(r.uri)!)}</span>
                    ) : null}
                    {subscriptions.supported ? (
                      <button
                        type="button"
                        className="button button--small"
                        aria-pressed={subscriptions.uris.has(r.uri)}
                        aria-label={`${subscriptions.uris.has(r.uri) ? 'Unsubscribe from' : 'Subscribe to'} ${r.title ?? r.name}`}
                        disabled={subscriptions.busy.has(r.uri)}
                        onClick={() => void subscriptions.toggle(r.uri)}
                      >
                        {subscriptions.uris.has(r.uri) ? 'Subscribed' : 'Subscribe'}
                      </button>
                    ) : null}
                    <button type="button" className="button button--small" aria-label={`Read ${r.title ?? r.name}`} onClick={() => read(r.uri)}>
                      Read
                    </button>
                  </div>
                </div>
              )}
            />
          )}
        </section>
      ) : null}
      {templates.length > 0 ? (
        <section aria-label={`Templates of ${server.name}`}>
          <h2 className="section-title">
            Templates <span className="muted">(fill in the blanks to read one)</span>
          </h2>
          <ul className="plain-list" aria-label={`Resource templates of ${server.name}`}>
            {shownTemplates.map((t) => (
              <li key={t.uriTemplate} className="item-row">
                <div className="item-row__main">
                  <p className="item-row__name">{t.title ?? t.name}</p>
                  <p className="item-row__desc">
                    <code>{t.uriTemplate}</code>
                    {t.description ? ` — ${t.description}` : ''}
                  </p>
                </div>
                <div className="item-row__side">
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={`Use template ${t.title ?? t.name}`}
                    onClick={() => {
                      setReadingUri(undefined);
                      setTemplate(t);
                      window.scrollTo({ top: 0 });
                    }}
                  >
                    Use template
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
