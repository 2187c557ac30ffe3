import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { ConsentChoice, ConsentRequest } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { noteConsentAnswered } from './consent-clock';
import { ConsentDialog } from './ConsentDialog';
import { launchSheet } from './launch-sheet-store';
import { LaunchSheet } from './LaunchSheet';

/**
 * App-wide: shows the Host's consent requests one at a time, whatever page is open. Requests
 * still pending when the page (re)loads are fetched first, so a reload never loses one; a request
 * the Host resolved elsewhere (answered, timed out, cancelled) disappears. Servers waiting to
 * start are asked about together, in one sheet when there are several (or its banner, once put
 * aside or once the first ones are answered: launch-sheet-store.ts).
 */
export function ConsentHost() {
  const api = useHarbor();
  const [queue, setQueue] = useState<readonly ConsentRequest[]>([]);

  useEffect(() => {
    let live = true;
    const add = (request: ConsentRequest) => setQueue((q) => (q.some((r) => r.id === request.id) ? q : [...q, request]));
    const offRequest = api.on.consent.request(add);
    const offResolved = api.on.consent.resolved(({ id }) => setQueue((q) => q.filter((r) => r.id !== id)));
    void api.consent.pending({}).then((result) => {
      if (!live || !result.ok) return;
      const now = Date.now();
      for (const request of result.value) if (request.deadline > now) add(request);
    });
    return () => {
      live = false;
      offRequest();
      offResolved();
    };
  }, [api]);

  const decide = useCallback(
    (id: string, decision: ConsentChoice) => {
      noteConsentAnswered();
      setQueue((q) => q.filter((r) => r.id !== id));
      void api.consent.respond({ id, decision });
    },
    [api],
  );

  const launches = queue.filter((r) => r.kind === 'launch');
  const others = queue.filter((r) => r.kind !== 'launch');
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
