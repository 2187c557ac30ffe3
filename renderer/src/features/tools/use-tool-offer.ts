import { useEffect, useState } from 'react';
import type { OfferReason } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';

/** Reasons in the person's words, beside a tool on the Tools page. */
export const REASON_TEXT: Readonly<Record<OfferReason, string>> = {
  disabled: 'Not offered: turned off',
  'server-not-ready': 'Not offered: server not ready',
  'outside-toolset': 'Not offered: outside the toolset',
  deferred: 'Found through search_tools (definitions over the budget)',
  'needs-approval': 'Offered as you approved it: changed since',
};

/**
 * Why each tool of a ready server is or is not offered to the model (tools.offer: the gatherer a
 * chat turn uses). Asked again when the catalog or the registry changes.
 */
export function useToolOffer(server: string, ready: boolean, catalog: unknown, registry: unknown): ReadonlyMap<string, OfferReason | null> {
  const api = useHarbor();
  const [reasons, setReasons] = useState<ReadonlyMap<string, OfferReason | null>>(() => new Map());
  useEffect(() => {
    if (!ready) return;
    let live = true;
    void api.tools.offer({ server }).then((result) => {
      // A failed answer leaves the reasons unshown; the switches and the catalog still say what is off.
      if (live && result.ok) setReasons(new Map(result.value.filter((v) => v.tool !== undefined).map((v) => [v.tool!, v.reason])));
    });
    return () => {
      live = false;
    };
  }, [api, server, ready, catalog, registry]);
  return reasons;
}
