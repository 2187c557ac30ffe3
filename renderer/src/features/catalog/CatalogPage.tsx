import type { ServerSummary } from '../../../../preload/contract';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { StateBadge } from '../servers/StateBadge';
import { useServers } from '../servers/use-servers';

type Kind = 'tools' | 'resources' | 'prompts';

const COPY: Record<Kind, { title: string; lead: string; count: (s: ServerSummary) => number }> = {
  tools: {
    title: 'Tools',
    lead: 'Actions your servers offer to the model. Each call asks for your approval.',
    count: (s) => s.counts.tools,
  },
  resources: {
    title: 'Resources',
    lead: 'Data your servers expose: files, records, documents you can attach to a chat.',
    count: (s) => s.counts.resources + s.counts.resourceTemplates,
  },
  prompts: {
    title: 'Prompts',
    lead: 'Ready-made instructions your servers offer, with arguments you fill in.',
    count: (s) => s.counts.prompts,
  },
};

/** Per-server counts for now; browsing and using individual items comes with the host core. */
export function CatalogPage({ kind }: { readonly kind: Kind }) {
  const copy = COPY[kind];
  const [state, reload] = useServers();
  return (
    <>
      <PageHeader title={copy.title}>{copy.lead}</PageHeader>
      {state.status === 'loading' ? <Loading label={`Loading ${kind}…`} /> : null}
      {state.status === 'error' ? <ErrorMessage error={state.error} onRetry={reload} /> : null}
      {state.status === 'ready' && state.value.length === 0 ? (
        <EmptyState title={`No ${kind} yet`}>
          <p>{copy.title} come from connected servers: add one to the configuration file shown in Settings.</p>
        </EmptyState>
      ) : null}
      {state.status === 'ready' && state.value.length > 0 ? (
        <table className="table">
          <caption className="visually-hidden">{copy.title} by server</caption>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">State</th>
              <th scope="col" className="table__number">
                {copy.title}
              </th>
            </tr>
          </thead>
          <tbody>
            {state.value.map((server) => (
              <tr key={server.name}>
                <th scope="row">{server.name}</th>
                <td>
                  <StateBadge state={server.state} />
                </td>
                <td className="table__number">{server.state.kind === 'ready' ? copy.count(server) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
