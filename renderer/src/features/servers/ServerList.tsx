import type { ServerSummary } from '../../../../preload/contract';
import type { LoadState } from '../../lib/load-state';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { ServerCard } from './ServerCard';

interface Props {
  readonly state: LoadState<readonly ServerSummary[]>;
  readonly onRetry?: () => void;
}

export function ServerList({ state, onRetry }: Props) {
  if (state.status === 'loading') return <Loading label="Loading servers…" />;
  if (state.status === 'error') return <ErrorMessage error={state.error} {...(onRetry ? { onRetry } : {})} />;
  if (state.value.length === 0) {
    return (
      <EmptyState title="No servers configured">
        <p>
          Add servers to the configuration file shown in Settings, in the <code>mcpServers</code> shape Claude
          Desktop and Cursor use.
        </p>
      </EmptyState>
    );
  }
  return (
    <ul className="cards" aria-label="Servers">
      {state.value.map((server) => (
        <li key={server.name}>
          <ServerCard server={server} />
        </li>
      ))}
    </ul>
  );
}
