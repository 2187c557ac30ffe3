import { useState } from 'react';
import type { InstallPlanData } from '../../../../preload/contract';

/**
 * The variables that load code (NODE_OPTIONS, LD_PRELOAD…) the person ticked, one box each, for the
 * plan shown. Install is possible only once every one the plan sets is ticked; the install request
 * carries exactly those names (the Host refuses any other).
 */
export function useAllowedEnv(plan: InstallPlanData | undefined) {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(() => new Set());
  const needed = plan?.codeLoadingEnv ?? [];
  const allowEnv = needed.filter((name) => ticked.has(name));
  const toggle = (name: string, on: boolean) =>
    setTicked((before) => {
      const next = new Set(before);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  return { ticked, toggle, allowEnv, allAllowed: allowEnv.length === needed.length } as const;
}
