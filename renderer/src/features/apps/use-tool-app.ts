import { useContext, useEffect, useState } from 'react';
import { ServicesContext } from '../../app/services';

/**
 * The `ui://` resource a tool renders its results with, or undefined when it has none (or its
 * server cannot say yet). Asked from the Host's catalog of a connected server — never starting one
 * — and asked again when that server connects or its tools change.
 */
export function useToolApp(server: string | undefined, tool: string | undefined): string | undefined {
  // A card drawn without the Host (a component on its own) simply has no app.
  const api = useContext(ServicesContext)?.api;
  const key = server && tool ? `${server}\u0000${tool}` : undefined;
  const [found, setFound] = useState<{ readonly key: string; readonly uri: string | undefined } | undefined>();
  useEffect(() => {
    if (!api || !server || !tool || !key) return;
    let current = true;
    const ask = () =>
      void api.apps.forTool({ server, tool }).then((result) => {
        if (current && result.ok && result.value.known) setFound({ key, uri: result.value.resourceUri });
      });
    ask();
    const off = api.on.servers.changed((change) => {
      if (change.name !== server) return;
      if ((change.reason === 'state' && change.summary?.state.kind === 'ready') || (change.reason === 'catalog' && change.changed?.includes('tools'))) ask();
    });
    return () => {
      current = false;
      off();
    };
  }, [api, server, tool, key]);
  return found && found.key === key ? found.uri : undefined;
}
