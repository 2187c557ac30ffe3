import type { ConnectionState } from '../../../../preload/contract';

export function stateLabel(state: ConnectionState): string {
  switch (state.kind) {
    case 'stopped':
      return 'Stopped';
    case 'starting':
      return 'Starting';
    case 'ready':
      return 'Ready';
    case 'restarting':
      return `Restarting (${state.attempt}/${state.maxAttempts})`;
    case 'error':
      return 'Error';
  }
}

export function StateBadge({ state }: { readonly state: ConnectionState }) {
  return <span className={`badge badge--${state.kind}`}>{stateLabel(state)}</span>;
}
