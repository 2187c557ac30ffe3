import { useEffect, useSyncExternalStore } from 'react';
import { ConsentDialog } from './ConsentDialog';
import { inChat } from './consent-words';
import { useConsentQueue } from './consent-queue';
import { launchSheet } from './launch-sheet-store';
import { LaunchSheet } from './LaunchSheet';

/**
 * App-wide: shows the consent questions asked outside a chat one at a time, as a dialog, whatever
 * page is open. A chat's own calls are asked in their conversation's transcript (`ChatApprovals`).
 * Servers waiting to start are asked about together, in one sheet when there are several (or its
 * banner, once put aside or once the first ones are answered: launch-sheet-store.ts).
 */
export function ConsentHost() {
  const { requests, decide } = useConsentQueue();
  const dialogs = requests.filter((request) => !inChat(request));
  const launches = dialogs.filter((r) => r.kind === 'launch');
  const others = dialogs.filter((r) => r.kind !== 'launch');
  const sheet = useSyncExternalStore(launchSheet.subscribe, launchSheet.snapshot);
  useEffect(() => launchSheet.setWaiting(launches.length), [launches.length]);

  const current = others[0];
  if (current) return <ConsentDialog key={current.id} request={current} waiting={others.length - 1} onDecide={(decision) => decide(current.id, decision)} />;
  if (launches.length === 0 || sheet.aside) return null;
  // One server alone gets the full question (its risk, environment, countdown); several, one sheet.
  const only = launches.length === 1 && !sheet.grouped ? launches[0] : undefined;
  if (only) return <ConsentDialog key={only.id} request={only} waiting={0} onDecide={(decision) => decide(only.id, decision)} />;
  return <LaunchSheet requests={launches} onDecide={decide} onLater={() => launchSheet.putAside()} />;
}
