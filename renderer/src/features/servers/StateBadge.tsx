import { useEffect, useState } from 'react';
import type { ConnectionState } from '../../../../preload/contract';

/** `transport` "http": a lost connection is reconnected, not a process restarted, and says so. */
export function stateLabel(state: ConnectionState, now = Date.now(), transport?: 'stdio' | 'http'): string {
  switch (state.kind) {
    case 'stopped':
      return 'Stopped';
    case 'starting':
      return 'Starting';
    case 'ready':
      return 'Ready';
    case 'restarting': {
      const seconds = Math.max(0, Math.ceil((state.nextAt - now) / 1000));
      if (transport === 'http') return `Reconnecting (attempt ${state.attempt}${seconds > 0 ? `, next in ${seconds} s` : ''})`;
      return `Restarting ${state.attempt}/${state.maxAttempts}${seconds > 0 ? ` · in ${seconds} s` : ''}`;
    }
    case 'error':
      return 'Error';
  }
}

/** The state as a coloured pill; while restarting it counts down to the next attempt. */
export function StateBadge({ state, transport }: { readonly state: ConnectionState; readonly transport?: 'stdio' | 'http' }) {
  const now = useNow(state.kind === 'restarting');
  return <span className={`badge badge--${state.kind}`}>{stateLabel(state, now, transport)}</span>;
}

/** The current time, ticking each second while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [active]);
  return now;
}
