import { useMemo } from 'react';
import { summarizeHealth, HEALTHY, type ServerHealth } from './server-health';
import { useServerStatus } from './server-status';

export type { ServerHealth } from './server-health';

/**
 * The servers' health for the navigation's indicator: which failed, which wait for the person
 * (a launch to allow, a sign-in). Live; all clear while the list is loading or unreachable.
 */
export function useServerHealth(): ServerHealth {
  const [state] = useServerStatus();
  const servers = state.status === 'ready' ? state.value : undefined;
  return useMemo(() => (servers ? summarizeHealth(servers) : HEALTHY), [servers]);
}
