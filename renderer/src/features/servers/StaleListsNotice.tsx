import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { visibleText } from '../../lib/visible-text';

const LISTS = { tools: 'tools', resources: 'resources', resourceTemplates: 'resource templates', prompts: 'prompts' } as const;

/**
 * A list the server said had changed and then failed to send: the page shows the last good one,
 * and says so here with the server's own message and Retry (Harbor also retries by itself).
 */
export function StaleListsNotice({ server }: { readonly server: ServerSummary }) {
  const api = useHarbor();
  const [busy, setBusy] = useState(false);
  const stale = server.stale;
  if (!stale) return null;
  const lists = stale.lists.map((kind) => LISTS[kind]).join(', ');
  const since = new Date(stale.since).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <div className="stale-lists" role="status">
      <p>
        <strong>{lists} refresh failed:</strong> {visibleText(stale.message)} — showing the list from {since}. Harbor tries again by itself.
      </p>
      <button
        type="button"
        className="button button--with-icon"
        aria-label={`Retry fetching the ${lists} of ${server.name}`}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void api.servers.retryLists({ name: server.name }).finally(() => setBusy(false));
        }}
      >
        <RotateCw aria-hidden="true" size={14} />
        {busy ? 'Retrying…' : 'Retry'}
      </button>
    </div>
  );
}
