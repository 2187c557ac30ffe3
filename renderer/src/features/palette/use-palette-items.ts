import { useEffect, useMemo, useState } from 'react';
import type { CatalogView, ConversationSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { useServers } from '../servers/use-servers';
import { useCommands } from './command-registry';
import { catalogItems, commandItems, conversationItems, serverItems } from './palette-sources';
import type { PaletteItem } from './palette-search';

/**
 * Everything the palette can open, fetched when it opens: the servers (the window's live list),
 * the catalogs of the servers that are running (a stopped one is not started to be listed), the
 * conversations, and the registered commands. What is still loading or failed is simply not there
 * yet; `loading` says whether more is coming.
 */
export function usePaletteItems(): { readonly items: readonly PaletteItem[]; readonly loading: boolean } {
  const api = useHarbor();
  const [servers] = useServers();
  const commands = useCommands();
  /** By server name; null: its catalog could not be fetched. */
  const [catalogs, setCatalogs] = useState<ReadonlyMap<string, CatalogView | null>>(() => new Map());
  const [conversations, setConversations] = useState<readonly ConversationSummary[] | undefined>();
  const ready = useMemo(() => (servers.status === 'ready' ? servers.value.filter((s) => s.state.kind === 'ready').map((s) => s.name) : []), [servers]);
  const readyKey = ready.join('\u0000');

  useEffect(() => {
    let live = true;
    void api.conversations.list({}).then((result) => {
      if (live) setConversations(result.ok ? result.value : []);
    });
    return () => {
      live = false;
    };
  }, [api]);

  useEffect(() => {
    let live = true;
    const names = readyKey ? readyKey.split('\u0000') : [];
    for (const name of names) {
      void api.catalog.get({ name }).then((result) => {
        if (live) setCatalogs((current) => new Map(current).set(name, result.ok ? result.value : null));
      });
    }
    return () => {
      live = false;
    };
  }, [api, readyKey]);

  const items = useMemo(
    () => [
      ...(servers.status === 'ready' ? serverItems(servers.value) : []),
      ...ready.flatMap((name) => {
        const catalog = catalogs.get(name);
        return catalog ? catalogItems(catalog) : [];
      }),
      ...conversationItems(conversations ?? []),
      ...commandItems(commands),
    ],
    [servers, catalogs, ready, conversations, commands],
  );
  return { items, loading: servers.status === 'loading' || conversations === undefined || ready.some((name) => !catalogs.has(name)) };
}
