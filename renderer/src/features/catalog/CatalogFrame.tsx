import { useId, type ReactNode } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { hrefFor } from '../../app/routes';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { useServers } from '../servers/use-servers';
import { StateBadge } from '../servers/StateBadge';
import { NotReady } from './NotReady';
import { ServerPicker, usePickedServer } from './ServerPicker';
import './catalog.css';

interface Props {
  /** "tools", "resources", "prompts". */
  readonly noun: string;
  readonly count: (server: ServerSummary) => number;
  readonly search: string;
  readonly onSearch: (value: string) => void;
  /**
   * The page's body for one server (it shows <NotReady>'s one line while the server is not connected);
   * `grouped` when it is one group among all servers' (then it shows nothing when nothing matches;
   * servers not ready are not groups: each is one line of the list on top).
   */
  readonly children: (server: ServerSummary, grouped: boolean) => ReactNode;
}

/**
 * What the Tools, Resources and Prompts pages share: the server list, its picker, the search box,
 * and every not-ready state. With "All servers" picked, the search runs over every enabled
 * server at once and the results are grouped by server.
 */
export function CatalogFrame({ noun, count, search, onSearch, children }: Props) {
  const [servers, reload] = useServers();
  const list = servers.status === 'ready' ? servers.value : [];
  const [server, pick] = usePickedServer(list);
  const enabled = list.filter((s) => s.enabled);
  const searchId = useId();
  if (servers.status === 'loading') return <Loading label="Loading servers…" />;
  if (servers.status === 'error') return <ErrorMessage error={servers.error} onRetry={reload} />;
  if (enabled.length === 0) {
    return (
      <EmptyState title={`No ${noun} yet`}>
        <p>
          {noun[0]!.toUpperCase() + noun.slice(1)} come from your servers. Add or enable one on the <a href={hrefFor('servers')}>Servers</a> page.
        </p>
      </EmptyState>
    );
  }
  return (
    <>
      <div className="catalog-toolbar">
        <ServerPicker servers={list} current={server} onPick={pick} count={count} noun={noun} />
        <div className="search">
          <label htmlFor={searchId} className="visually-hidden">
            Search {noun}
          </label>
          <input
            id={searchId}
            className="input"
            type="search"
            placeholder={`Search ${noun} by name or description`}
            value={search}
            disabled={server !== undefined && server.state.kind !== 'ready'}
            onChange={(e) => onSearch(e.target.value)}
          />
        </div>
      </div>
      {server ? (
        children(server, false)
      ) : (
        <>
          <NotReady servers={enabled.filter((s) => s.state.kind !== 'ready')} noun={noun} />
          {enabled
            .filter((s) => s.state.kind === 'ready')
            .map((s) => (
              <section key={s.name} className="catalog-group" aria-label={s.name}>
                <h2 className="catalog-group__title">
                  {s.name} <StateBadge state={s.state} />
                </h2>
                {children(s, true)}
              </section>
            ))}
        </>
      )}
    </>
  );
}

/** Case-insensitive match of every word of the query in any of the fields. */
export function matches(query: string, ...fields: ReadonlyArray<string | undefined>): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fields.filter(Boolean).join('\n').toLowerCase();
  return words.every((w) => haystack.includes(w));
}
