import { useCallback, useEffect, useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';

export interface Subscriptions {
  /** Whether the server offers subscriptions (undefined until known). */
  readonly supported: boolean | undefined;
  readonly uris: ReadonlySet<string>;
  /** When the server last said a subscribed resource changed, by URI (epoch ms). */
  readonly changed: ReadonlyMap<string, number>;
  readonly busy: ReadonlySet<string>;
  readonly error: HarborErrorData | undefined;
  toggle(uri: string): Promise<void>;
}

/** The resources subscribed to on one ready server, and when each last changed. */
export function useSubscriptions(server: string, ready: boolean): Subscriptions {
  const api = useHarbor();
  const [supported, setSupported] = useState<boolean | undefined>();
  const [uris, setUris] = useState<ReadonlySet<string>>(new Set());
  const [changed, setChanged] = useState<ReadonlyMap<string, number>>(new Map());
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<HarborErrorData | undefined>();

  useEffect(() => {
    if (!ready) return;
    let live = true;
    void api.resources.subscriptions({ server }).then((result) => {
      if (!live || !result.ok) return;
      setSupported(result.value.supported);
      setUris(new Set(result.value.uris));
    });
    const off = api.on.servers.changed((event) => {
      if (event.name === server && event.reason === 'resourceUpdated' && event.uri) {
        const uri = event.uri;
        setChanged((m) => new Map(m).set(uri, Date.now()));
      }
    });
    return () => {
      live = false;
      off();
    };
  }, [api, server, ready]);

  const toggle = useCallback(
    async (uri: string) => {
      setBusy((b) => new Set(b).add(uri));
      setError(undefined);
      const result = uris.has(uri) ? await api.resources.unsubscribe({ server, uri }) : await api.resources.subscribe({ server, uri });
      setBusy((b) => {
        const next = new Set(b);
        next.delete(uri);
        return next;
      });
      if (!result.ok) return setError(asErrorData(result.error));
      setSupported(result.value.supported);
      setUris(new Set(result.value.uris));
    },
    [api, server, uris],
  );

  return { supported, uris, changed, busy, error, toggle };
}
