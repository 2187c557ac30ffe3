import { startTransition, useCallback, useEffect, useState } from 'react';
import type { CatalogView, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData, type LoadState } from '../../lib/load-state';

export type CatalogList = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/**
 * One server's catalog, fetched when it is ready and fetched again whenever the Host says its
 * lists changed (list_changed / listen), it became ready again, or its configuration changed.
 * A stopped server is not started just to be listed: the page offers Start instead.
 */
export function useCatalog(server: ServerSummary | undefined, lists: readonly CatalogList[]): readonly [LoadState<CatalogView> | undefined, () => void] {
  const api = useHarbor();
  const name = server?.name;
  const ready = server?.state.kind === 'ready';
  const [state, setState] = useState<{ key: string; value: LoadState<CatalogView> } | undefined>();
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const key = `${name ?? ''}\u0000${String(ready)}`;

  useEffect(() => {
    if (!name || !ready) return;
    let live = true;
    void api.catalog.get({ name }).then((result) => {
      if (!live) return;
      // A transition: with every server shown, fifty catalogs arrive together, and React renders
      // their lists in slices between the page's other work instead of in one long task.
      startTransition(() => {
        setState({ key, value: result.ok ? { status: 'ready', value: result.value } : { status: 'error', error: asErrorData(result.error) } });
      });
    });
    return () => {
      live = false;
    };
  }, [api, name, ready, key, generation]);

  const wanted = lists.join(',');
  useEffect(() => {
    if (!name) return;
    return api.on.servers.changed((event) => {
      if (event.name !== name) return;
      if (event.reason === 'catalog' && (event.changed ?? []).some((c) => wanted.split(',').includes(c))) reload();
      if (event.reason === 'config') reload();
    });
  }, [api, name, wanted, reload]);

  // A tool's "changed since you approved it" mark goes once the person approves the change.
  const tools = wanted.split(',').includes('tools');
  useEffect(() => {
    if (!name || !tools) return;
    return api.on.consent.resolved((event) => {
      if (event.decision === 'always') reload();
    });
  }, [api, name, tools, reload]);

  if (!name || !ready) return [undefined, reload] as const;
  // A catalog of another server (or of before a restart) is never shown as this one's.
  return [state?.key === key ? state.value : { status: 'loading' }, reload] as const;
}
