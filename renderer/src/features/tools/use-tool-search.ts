import { useEffect, useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';

/** The Tools page shows at most this many matches: the best of thousands, not all of them. */
export const TOOL_SEARCH_LIMIT = 500;

/** What the search box found: for each server, its matching tools' names, best first. */
export type ToolMatches =
  | { readonly status: 'all' }
  | { readonly status: 'searching' }
  | { readonly status: 'found'; readonly byServer: ReadonlyMap<string, readonly string[]>; readonly capped: boolean }
  | { readonly status: 'error'; readonly error: HarborErrorData };

/**
 * The Tools page's search, ranked by the Host's one tool index (the one the chat's search_tools
 * and `harbor tools --search` use), typed-as-you-go: every word must match, the last as a prefix.
 * Searched again when a server's tools change, so a tool added by `list_changed` shows up.
 */
export function useToolSearch(search: string): ToolMatches {
  const api = useHarbor();
  const query = search.trim();
  const [found, setFound] = useState<ToolMatches | undefined>();
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (!query) return;
    return api.on.servers.changed((event) => {
      if ((event.reason === 'catalog' && event.changed?.includes('tools')) || event.reason === 'config' || event.reason === 'removed') setGeneration((g) => g + 1);
    });
  }, [api, query]);

  useEffect(() => {
    if (!query) return;
    let live = true;
    void api.tools.search({ query, limit: TOOL_SEARCH_LIMIT, asYouType: true }).then((result) => {
      if (!live) return;
      if (!result.ok) {
        setFound({ status: 'error', error: asErrorData(result.error) });
        return;
      }
      const byServer = new Map<string, string[]>();
      for (const hit of result.value) byServer.set(hit.server, [...(byServer.get(hit.server) ?? []), hit.tool]);
      setFound({ status: 'found', byServer, capped: result.value.length >= TOOL_SEARCH_LIMIT });
    });
    return () => {
      live = false;
    };
  }, [api, query, generation]);

  if (!query) return { status: 'all' };
  // The last answer stays on screen while the next word is searched: no flicker while typing.
  return found ?? { status: 'searching' };
}
