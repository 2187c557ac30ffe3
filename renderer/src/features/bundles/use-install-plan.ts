import { useEffect, useState } from 'react';
import type { HarborErrorData, InstallOutcomeData, Result } from '../../../../preload/contract';
import { asErrorData } from '../../lib/load-state';

/**
 * The plan of an install as the person fills the form: a dry run shortly after the last change
 * (what would be written and run), or why it cannot be installed yet (a missing setting…).
 */
export function useInstallPlan(dryRun: () => Promise<Result<InstallOutcomeData>>, key: string) {
  const [state, setState] = useState<{ key?: string; plan?: InstallOutcomeData['plan']; problem?: HarborErrorData }>({});
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void dryRun().then((result) => {
        if (!live) return;
        setState(result.ok ? { key, plan: result.value.plan } : { key, problem: asErrorData(result.error) });
      });
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `key` stands for the inputs dryRun closes over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  // Until the plan of these inputs arrives, the last one stays shown but cannot be installed.
  return { plan: state.plan, problem: state.problem, checking: state.key !== key };
}
