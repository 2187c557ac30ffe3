import { useState } from 'react';
import type { HarborErrorData, InstallOutcomeData, Result } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';

/** The values of an install form by key; setting undefined removes one (the Host applies its default). */
export function useFormValues<V>(initial: () => Record<string, V>): readonly [Record<string, V>, (key: string, value: V | undefined) => void] {
  const [values, setValues] = useState(initial);
  const set = (key: string, value: V | undefined) =>
    setValues((v) => {
      const next = { ...v };
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    });
  return [values, set] as const;
}

/**
 * The Install button of an install dialog: runs the install, then starts the server — which asks
 * for launch consent showing the same command line or address — and reports the server's name.
 */
export function useInstallAction(run: () => Promise<Result<InstallOutcomeData>>, onInstalled: (server: string) => void) {
  const api = useHarbor();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<HarborErrorData | undefined>();
  const install = async () => {
    setBusy(true);
    setFailure(undefined);
    const result = await run();
    setBusy(false);
    if (!result.ok) return setFailure(asErrorData(result.error));
    void api.servers.start({ name: result.value.plan.server });
    onInstalled(result.value.plan.server);
  };
  return { busy, failure, install };
}
