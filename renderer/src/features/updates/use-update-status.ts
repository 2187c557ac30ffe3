import { useEffect, useState } from 'react';
import type { UpdateStatus } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';

/**
 * The app's update state: asked for once, then kept current by the `app.update` events the
 * desktop shell sends as a version is found, downloads and becomes ready. Undefined until known
 * (or when the Host cannot say: then there is nothing to show).
 */
export function useUpdateStatus(): readonly [UpdateStatus | undefined, (status: UpdateStatus) => void] {
  const api = useHarbor();
  const [status, setStatus] = useState<UpdateStatus | undefined>();
  useEffect(() => {
    let live = true;
    // An event that arrives while the first answer is on its way is newer: it wins.
    let fromEvent = false;
    const stop = api.on.app.update((next) => {
      fromEvent = true;
      setStatus(next);
    });
    void api.app.updateStatus({}).then((result) => {
      if (live && result.ok && !fromEvent) setStatus(result.value);
    });
    return () => {
      live = false;
      stop();
    };
  }, [api]);
  return [status, setStatus] as const;
}
