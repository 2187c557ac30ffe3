import { memo, useMemo, useState, type ReactNode } from 'react';
import type { HarborErrorData, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { VirtualList } from '../../ui/VirtualList';
import { NearViewport } from '../catalog/NearViewport';
import { ChangedSinceApproval } from '../consent/ChangedSinceApproval';
import { NotReady } from '../catalog/NotReady';
import { useCatalog } from '../catalog/use-catalog';
import { useSelection } from '../catalog/use-selection';
import { useRegistry } from '../servers/use-registry';
import { RunTool } from './RunTool';
import { ToolRow } from './ToolRow';
import { asTool, type ToolItem } from './tool-item';
import { REASON_TEXT, useToolOffer } from './use-tool-offer';
import type { ToolMatches } from './use-tool-search';

interface Props {
  readonly server: ServerSummary;
  readonly search: string;
  /** What the page's search found (the Host's tool index), or every tool when nothing is typed. */
  readonly matches: ToolMatches;
  /** One group among all servers': nothing at all when no tool matches the search. */
  readonly grouped?: boolean;
}

/**
 * One server's tools: searchable, each turned on or off, one opened to run by hand (kept across reloads). Updates live.
 * Memoized: with fifty servers shown, a key typed in the search box does not re-render their lists before the box shows it;
 * they follow with the deferred search.
 */
export const ToolsView = memo(function ToolsView({ server, search, matches, grouped = false }: Props) {
  const api = useHarbor();
  const [catalog, reload] = useCatalog(server, ['tools']);
  const [registry] = useRegistry();
  const [selectedName, select] = useSelection('tools', server.name);
  // The tool itself, not just its name: the panel stays while the server restarts.
  const [kept, setKept] = useState<ToolItem | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  // Switches flip at once; the registry takes over again once it is reloaded after the click.
  const [pending, setPending] = useState<ReadonlyMap<string, { readonly value: boolean; readonly seen: unknown }>>(() => new Map());

  const tools = useMemo(() => (catalog?.status === 'ready' ? catalog.value.tools.map((raw) => asTool(raw, catalog.value.toolChanges)).filter((t): t is ToolItem => t !== undefined) : []), [catalog]);
  // Asked again when the catalog or the registry (switches, toolsets, budget) is reloaded.
  const reasons = useToolOffer(server.name, catalog?.status === 'ready', catalog, registry);
  const shown = useMemo(() => matchingTools(tools, server.name, matches), [tools, server.name, matches]);
  const found = selectedName === undefined ? undefined : tools.find((t) => t.name === selectedName);
  // Remembered while rendering (React's "adjust state on a prop change"), not in an effect.
  if (found && found !== kept) setKept(found);
  const selected = found ?? (kept?.name === selectedName ? kept : undefined);
  const config = registry.status === 'ready' ? registry.value.servers.find((s) => s.name === server.name)?.config : undefined;
  const disabled = new Set(Array.isArray(config?.disabledTools) ? (config.disabledTools as string[]) : []);
  const gone = selectedName !== undefined && catalog?.status === 'ready' && !found;

  const isEnabled = (tool: string) => {
    const flip = pending.get(tool);
    return flip && flip.seen === registry ? flip.value : !disabled.has(tool);
  };
  const setEnabled = async (tool: string, enabled: boolean) => {
    setPending((p) => new Map(p).set(tool, { value: enabled, seen: registry }));
    setError(undefined);
    const result = await api.tools.setEnabled({ server: server.name, tool, enabled });
    if (!result.ok) {
      setError(asErrorData(result.error));
      setPending((p) => {
        const next = new Map(p);
        next.delete(tool);
        return next;
      });
    }
  };

  const panel =
    gone ? (
      <div className="notice notice--warn" role="status">
        <p className="notice__message">{server.name} no longer offers the tool “{selectedName}”.</p>
        <button type="button" className="button button--small" onClick={() => select(undefined)}>
          Close
        </button>
      </div>
    ) : selected === undefined ? null : (
      <>
        {selected.change ? <ChangedSinceApproval name={selected.name} change={selected.change} /> : null}
        <RunTool key={`${server.name}/${selected.name}`} server={server.name} tool={selected} onClose={() => select(undefined)} />
      </>
    );
  if (!catalog) {
    return (
      <>
        {panel}
        <NotReady servers={[server]} noun="tools" />
      </>
    );
  }
  if (catalog.status === 'loading') return <>{panel}<Loading label={`Loading the tools of ${server.name}…`} /></>;
  if (catalog.status === 'error') return <ErrorMessage error={catalog.error} onRetry={reload} />;
  // The page says a failed search once, above every server; the lists wait for a working one.
  if (matches.status === 'error') return panel;
  if (matches.status === 'searching') return <>{panel}<Loading label="Searching…" /></>;
  if (grouped && search.trim() && shown.length === 0 && !panel) return <p className="muted">No tool matches.</p>;
  return (
    <>
      {panel}
      {error ? <ErrorMessage error={error} /> : null}
      {tools.length === 0 ? (
        <EmptyState title={`${server.name} offers no tools`} />
      ) : (
        <>
          <p className="muted catalog-count" aria-live="polite">
            {shown.length === tools.length ? `${tools.length} tool${tools.length === 1 ? '' : 's'}` : `${shown.length} of ${tools.length} tools match`}
            {disabled.size > 0 ? ` · ${disabled.size} turned off` : ''}
          </p>
          {[...reasons.values()].includes('deferred') ? <p className="muted catalog-count">{REASON_TEXT.deferred}</p> : null}
          {shown.length === 0 ? (
            <EmptyState title="No tool matches your search" />
          ) : (
            <MaybeNearViewport lazy={grouped} rows={shown.length}>
              <VirtualList
                items={shown}
                overscan={grouped ? GROUPED_OVERSCAN : undefined}
                label={`Tools of ${server.name}`}
                estimateSize={ROW_HEIGHT}
                getKey={(t) => t.name}
                renderItem={(tool) => (
                  <ToolRow
                    tool={tool}
                    reason={(() => {
                      const reason = reasons.get(tool.name);
                      // "deferred" holds for every tool once past the budget: said once, above the list.
                      return reason && reason !== 'deferred' ? REASON_TEXT[reason] : undefined;
                    })()}
                    enabled={isEnabled(tool.name)}
                    canToggle={config !== undefined}
                    selected={tool.name === selected?.name}
                    onToggle={(on) => void setEnabled(tool.name, on)}
                    onOpen={() => {
                      select(tool.name);
                      window.scrollTo({ top: 0 });
                    }}
                  />
                )}
              />
            </MaybeNearViewport>
          )}
        </>
      )}
    </>
  );
});

const ROW_HEIGHT = 72;
// Each list that scrolls into view among fifty is built while scrolling: a few spare rows, not eight.
const GROUPED_OVERSCAN = 3;

/** One group among fifty mounts its list only near the screen; a lone server's list is always there. */
function MaybeNearViewport({ lazy, rows, children }: { readonly lazy: boolean; readonly rows: number; readonly children: ReactNode }) {
  if (!lazy) return children;
  return (
    <NearViewport estimatedHeight={rows * ROW_HEIGHT} placeholderClassName="vlist">
      {children}
    </NearViewport>
  );
}

/** The server's tools the search found, best first (all of them, in the server's order, with no search). */
function matchingTools(tools: readonly ToolItem[], server: string, matches: ToolMatches): readonly ToolItem[] {
  if (matches.status === 'all') return tools;
  if (matches.status !== 'found') return [];
  const byName = new Map(tools.map((t) => [t.name, t]));
  return (matches.byServer.get(server) ?? []).map((name) => byName.get(name)).filter((t): t is ToolItem => t !== undefined);
}
