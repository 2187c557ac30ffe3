import { useCallback, useEffect, useState } from 'react';
import type { ConsentChoice, ConsentRequest } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { noteConsentAnswered } from './consent-clock';
import { ConsentDialog } from './ConsentDialog';

/**
 * App-wide: shows the Host's consent requests one at a time, whatever page is open. Requests
 * still pending when the page (re)loads are fetched first, so a reload never loses one; a request
 * the Host resolved elsewhere (answered, timed out, cancelled) disappears.
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

  const current = queue[0];
  if (!current) return null;
  return <ConsentDialog key={current.id} request={current} waiting={queue.length - 1} onDecide={(decision) => decide(current.id, decision)} />;
}
