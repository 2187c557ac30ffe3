import type { RegistryView, ServerSummary } from '../../../../preload/contract';
import type { LoadState } from '../../lib/load-state';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { ServerCard } from './ServerCard';

interface Props {
  readonly state: LoadState<readonly ServerSummary[]>;
  readonly onRetry?: () => void;
  readonly registry?: RegistryView;
  readonly costs?: ReadonlyMap<string, { toolTokens: number; instructionTokens: number }>;
  readonly onEdit?: (name: string) => void;
  readonly onAdd?: () => void;
}

export function ServerList({ state, onRetry, registry, costs, onEdit, onAdd }: Props) {
  if (state.status === 'loading') return <Loading label="Loading servers…" />;
  if (state.status === 'error') return <ErrorMessage error={state.error} {...(onRetry ? { onRetry } : {})} />;
  if (state.value.length === 0) {
    return (
      <EmptyState title="No servers configured">
        <p>
          Add a server, import the ones you use in Claude Desktop, VS Code or Cursor, or edit the configuration as JSON (the <code>mcpServers</code> shape those apps use).
        </p>
        {onAdd ? (
          <button type="button" className="button button--primary empty__action" onClick={onAdd}>
            Add a server
          </button>
        ) : null}
      </EmptyState>
    );
  }
  const configs = new Map(registry?.servers.map((s) => [s.name, s.config]));
  return (
    <ul className="cards" aria-label="Servers">
      {state.value.map((server) => {
        const config = configs.get(server.name);
        const cost = costs?.get(server.name);
        return (
          <li key={server.name}>
            <ServerCard server={server} {...(config ? { config } : {})} {...(cost ? { cost } : {})} {...(onEdit && config ? { onEdit: () => onEdit(server.name) } : {})} />
          </li>
        );
      })}
    </ul>
  );
}
