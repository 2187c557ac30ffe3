import { useMemo } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { VirtualList } from '../../ui/VirtualList';
import { matches } from '../catalog/CatalogFrame';
import { NotReady } from '../catalog/NotReady';
import { useCatalog } from '../catalog/use-catalog';
import { useSelection } from '../catalog/use-selection';
import { PromptForm } from './PromptForm';
import { asPrompt, type PromptItem } from './prompt-item';

interface Props {
  readonly server: ServerSummary;
  readonly search: string;
  /** One group among all servers': a short line when no prompt matches the search. */
  readonly grouped?: boolean;
}

/** One server's prompts; open one (kept across reloads) to fill its arguments (with suggestions) and see the messages it makes. */
export function PromptsView({ server, search, grouped = false }: Props) {
  const [catalog, reload] = useCatalog(server, ['prompts']);
  const [selected, setSelected] = useSelection('prompts', server.name);
  const prompts = useMemo(() => (catalog?.status === 'ready' ? catalog.value.prompts.map(asPrompt).filter((p): p is PromptItem => p !== undefined) : []), [catalog]);
  const shown = useMemo(() => prompts.filter((p) => matches(search, p.name, p.title, p.description)), [prompts, search]);
  const prompt = selected === undefined ? undefined : prompts.find((p) => p.name === selected);

  if (!catalog) return <NotReady servers={[server]} noun="prompts" />;
  if (catalog.status === 'loading') return <Loading label={`Loading the prompts of ${server.name}…`} />;
  if (catalog.status === 'error') return <ErrorMessage error={catalog.error} onRetry={reload} />;
  if (grouped && search.trim() && shown.length === 0 && selected === undefined) return <p className="muted">No prompt matches.</p>;
  return (
    <>
      {selected !== undefined ? (
        prompt ? (
          <PromptForm key={prompt.name} server={server.name} prompt={prompt} onClose={() => setSelected(undefined)} />
        ) : (
          <div className="notice notice--warn" role="status">
            <p className="notice__message">{server.name} no longer offers the prompt “{selected}”.</p>
            <button type="button" className="button button--small" onClick={() => setSelected(undefined)}>
              Close
            </button>
          </div>
        )
      ) : null}
      {prompts.length === 0 ? (
        <EmptyState title={`${server.name} offers no prompts`} />
      ) : shown.length === 0 ? (
        <EmptyState title="No prompt matches your search" />
      ) : (
        <VirtualList
          items={shown}
          label={`Prompts of ${server.name}`}
          className="vlist--short"
          estimateSize={64}
          getKey={(p) => p.name}
          renderItem={(p) => (
            <div className={`item-row${p.name === selected ? ' item-row--selected' : ''}`}>
              <div className="item-row__main">
                <p className="item-row__name">
                  {p.name}
                  {p.title ? <span className="item-row__title">{p.title}</span> : null}
                </p>
                {p.description ? <p className="item-row__desc">{p.description}</p> : null}
              </div>
              <div className="item-row__side">
                <button
                  type="button"
                  className="button button--small"
                  aria-label={`Use prompt ${p.name}`}
                  onClick={() => {
                    setSelected(p.name);
                    window.scrollTo({ top: 0 });
                  }}
                >
                  Use…
                </button>
              </div>
            </div>
          )}
        />
      )}
    </>
  );
}
