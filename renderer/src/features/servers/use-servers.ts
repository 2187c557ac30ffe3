import { useServerStatus } from './server-status';

/** The Host's server list, live (one shared copy for the window: see server-status.ts). */
export function useServers() {
  return useServerStatus();
}
