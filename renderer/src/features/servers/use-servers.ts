import { useCallback, useEffect } from 'react';
import { useHarbor } from '../../app/services';
import { useResult } from '../../lib/use-result';

/** The Host's server list, refetched whenever the Host says a server changed. */
export function useServers() {
  const api = useHarbor();
  const load = useCallback(() => api.servers.list({}), [api]);
  const [state, reload] = useResult(load);
  useEffect(() => api.on.servers.changed(() => reload()), [api, reload]);
  return [state, reload] as const;
}
