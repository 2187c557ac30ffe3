import { useCallback, useEffect, useState } from 'react';
import type { SandboxRefusalData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { useResult } from '../../lib/use-result';

/** What this machine's sandbox can do, and the install setting (checked once by the Host). */
export function useSandboxStatus() {
  const api = useHarbor();
  const load = useCallback(() => api.sandbox.status({}), [api]);
  return useResult(load);
}

/** What the sandbox refused one server, kept current by `sandbox.refused` events. */
export function useSandboxRefusals(server: string): readonly [readonly SandboxRefusalData[], () => void] {
  const api = useHarbor();
  const [refusals, setRefusals] = useState<readonly SandboxRefusalData[]>([]);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let live = true;
    const off = api.on.sandbox.refused((entry) => {
      if (entry.server !== server) return;
      setRefusals((all) => [...all.filter((r) => !(r.kind === entry.kind && r.target === entry.target)), entry]);
    });
    void api.sandbox.refusals({ server }).then((result) => {
      if (live && result.ok) setRefusals(result.value);
    });
    return () => {
      live = false;
      off();
    };
  }, [api, server, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return [refusals, reload] as const;
}
