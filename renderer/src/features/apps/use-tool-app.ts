import { useContext, useEffect, useState } from 'react';
import type { HarborApi } from '../../../../preload/contract';
import { ServicesContext } from '../../app/services';

/**
 * What the Host last said each tool's app is, per api (so per page), keyed by server and tool: a
 * call of the same tool later shows its app at once instead of after a round trip (#32 goal 5).
 * Only a call that is running now uses it (its server is connected: the call itself is on it), and
 * every card still asks the Host, which replaces the entry or removes it (the server disconnected,
 * the tool lost its app).
 */
const remembered = new WeakMap<HarborApi, Map<string, string>>();

function known(api: HarborApi): Map<string, string> {
  let map = remembered.get(api);
  if (!map) {
    map = new Map();
    remembered.set(api, map);
  }
  return map;
}

/** The Host said, with a call it streams, which app the tool has (chat.toolInput): its card shows it at once. */
export function rememberToolApp(api: HarborApi, server: string, tool: string, resourceUri: string): void {
  known(api).set(`${server}\u0000${tool}`, resourceUri);
}

function forgetServer(api: HarborApi, server: string): void {
  const map = remembered.get(api);
  for (const key of map?.keys() ?? []) if (key.startsWith(`${server}\u0000`)) map!.delete(key);
}

/**
 * The `ui://` resource a tool renders its results with, or undefined when it has none (or its
 * server cannot say yet). Asked from the Host's catalog of a connected server — never starting one
 * — and asked again when that server connects or its tools change. `live`: the call is running now
 * as the card appears, so what the Host said for this tool before is shown while it is asked again.
 */
export function useToolApp(server: string | undefined, tool: string | undefined, live = false): string | undefined {
  // A card drawn without the Host (a component on its own) simply has no app.
  const api = useContext(ServicesContext)?.api;
  const key = server && tool ? `${server}\u0000${tool}` : undefined;
  // Taken from what the Host said before only when the card appears (kept when the call ends before the answer).
  const [found, setFound] = useState<{ readonly key: string; readonly uri: string | undefined } | undefined>(() => {
    const uri = live && api && key ? remembered.get(api)?.get(key) : undefined;
    return key && uri ? { key, uri } : undefined;
  });
  useEffect(() => {
    if (!api || !server || !tool || !key) return;
    let current = true;
    const ask = () =>
      void api.apps.forTool({ server, tool }).then((result) => {
        if (!result.ok) return;
        if (result.value.known && result.value.resourceUri) known(api).set(key, result.value.resourceUri);
        else known(api).delete(key);
        if (current && result.value.known) setFound({ key, uri: result.value.resourceUri });
      });
    ask();
    const off = api.on.servers.changed((change) => {
      if (change.name !== server) return;
      if (change.reason === 'state' && change.summary?.state.kind !== 'ready') forgetServer(api, server);
      if ((change.reason === 'state' && change.summary?.state.kind === 'ready') || (change.reason === 'catalog' && change.changed?.includes('tools'))) ask();
    });
    return () => {
      current = false;
      off();
    };
  }, [api, server, tool, key]);
  return found && found.key === key ? found.uri : undefined;
}
