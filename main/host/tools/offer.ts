import type { Tool } from '@modelcontextprotocol/client';
import type { ConnectionState } from '../../../preload/contract';
import { isVisibleToModel } from '../apps/ui-meta';
import { asHarborError, type HarborError } from '../errors';
import { inToolset, type Toolset } from './toolsets';
import { ToolIndex, type ServerTools } from './tool-index';
import { loadTokenCounter, toolTokens } from './tokens';

/**
 * The one gatherer of the tools offered to a model: the chat's turns, code mode's typed API (in a
 * turn and `harbor exec`) and `harbor tools`' `offered`/`reason` all come from here, so what the
 * model sees and what the person is told about it cannot drift apart.
 */

/** Why a tool is not offered as is (or, needs-approval, offered only as the person approved it). */
export type OfferReason = 'disabled' | 'server-not-ready' | 'outside-toolset' | 'deferred' | 'needs-approval';

export interface ToolVerdict {
  readonly server: string;
  /** Absent when the server's tools are not known (it never became ready). */
  readonly tool?: string;
  readonly offered: boolean;
  /** Null when the tool is offered as it is now. */
  readonly reason: OfferReason | null;
  /** server-not-ready: the server's state. */
  readonly state?: ConnectionState;
}

/** What the gatherer needs from the Host. */
export interface OfferSource {
  listServers(): readonly { readonly name: string; readonly enabled: boolean; readonly state: ConnectionState }[];
  /** The catalog as a model may see it: a changed tool as the person approved it (calls.offeredCatalog). */
  catalog(server: string): Promise<{ readonly tools: readonly Tool[] }>;
  instructions?(server: string): Promise<string | undefined>;
  /** The tools changed since the person approved them (they are marked needs-approval). */
  toolChanges?(server: string): Promise<readonly { readonly tool: string }[]>;
}

/** The context budget: past it, definitions are deferred behind search_tools. */
export interface OfferBudget {
  readonly toolSearch: 'auto' | 'on' | 'off';
  /** Fraction of the context window the tool definitions may take. */
  readonly threshold: number;
  readonly contextWindow: number;
  /** Once a conversation searches it keeps searching (the tool array never changes under it). */
  readonly previousMode?: 'direct' | 'search';
}

export interface OfferOptions {
  /** Tools of a server the person turned off. */
  disabledTools(server: string): ReadonlySet<string>;
  /** Only these tools (a conversation's toolset); absent: every tool. */
  readonly toolset?: Toolset;
  /** Only these servers (harbor tools SERVER, the Tools page); absent: every enabled server. */
  readonly servers?: readonly string[];
  /** Decides direct or search mode by the definitions' tokens; absent: direct, nothing counted. */
  readonly budget?: OfferBudget;
}

export interface ReadyServer {
  readonly name: string;
  readonly tools: readonly Tool[];
  /** How many of its tools the model can reach. */
  readonly reachable: number;
  readonly instructions?: string;
}

export interface GatheredOffer {
  /** The tools the model can reach (directly or through search_tools/run_code), by exposed name. */
  readonly index: ToolIndex;
  readonly mode: 'direct' | 'search';
  /** Tokens of the reachable tools' definitions, as offering them all would send (0 without a budget). */
  readonly definitionTokens: number;
  readonly ready: readonly ReadyServer[];
  /** Enabled servers that could not be reached, with why. */
  readonly unavailable: readonly { readonly server: string; readonly error: HarborError }[];
  /** A launch that needs consent no one can give here. */
  readonly consentNeeded?: HarborError;
  /** Every tool of the servers asked, in server then catalog order: offered or not, and why. */
  readonly verdicts: readonly ToolVerdict[];
}

/** Gathers every enabled server's tools (connecting them as needed) and decides what is offered. */
export async function gatherOffer(source: OfferSource, options: OfferOptions): Promise<GatheredOffer> {
  const names = options.servers !== undefined ? [...options.servers] : source.listServers().filter((s) => s.enabled).map((s) => s.name);
  const counting = options.budget ? loadTokenCounter() : undefined;
  counting?.catch(() => undefined); // awaited below; unheard only when no server is ready
  const results = await Promise.all(names.map((name) => readServer(source, name)));
  const ready: ReadyServer[] = [];
  const unavailable: { server: string; error: HarborError }[] = [];
  const perServer: { server: string; verdicts: { tool: string; reason: OfferReason | null }[] }[] = [];
  const indexed: ServerTools[] = [];
  let consentNeeded: HarborError | undefined;
  for (const r of results) {
    if ('error' in r) {
      if (r.error.code === 'CONSENT_REQUIRED' || r.error.code === 'CONSENT_STALE') consentNeeded ??= r.error;
      unavailable.push({ server: r.name, error: r.error });
      continue;
    }
    const disabled = options.disabledTools(r.name);
    const changed = new Set(r.changes);
    const verdicts: { tool: string; reason: OfferReason | null }[] = [];
    const excluded = new Set<string>();
    for (const tool of r.tools) {
      // A tool only an app may call is not the model's at all: it is neither offered nor explained.
      if (!isVisibleToModel(tool)) continue;
      const reason: OfferReason | null = disabled.has(tool.name)
        ? 'disabled'
        : options.toolset && !inToolset(options.toolset, r.name, tool.name)
          ? 'outside-toolset'
          : changed.has(tool.name)
            ? 'needs-approval'
            : null;
      if (reason === 'disabled' || reason === 'outside-toolset') excluded.add(tool.name);
      verdicts.push({ tool: tool.name, reason });
    }
    indexed.push({ server: r.name, tools: r.tools, disabled: excluded });
    perServer.push({ server: r.name, verdicts });
    ready.push({ name: r.name, tools: r.tools, reachable: verdicts.length - excluded.size, ...(r.instructions ? { instructions: r.instructions } : {}) });
  }
  const index = ToolIndex.build(indexed);
  const count = await counting;
  const definitionTokens = count ? index.tools.reduce((sum, t) => sum + toolTokens(count, { name: t.exposedName, description: t.description, inputSchema: t.inputSchema }), 0) : 0;
  const budget = options.budget;
  const mode: 'direct' | 'search' =
    budget && budget.toolSearch !== 'off' && (budget.previousMode === 'search' || budget.toolSearch === 'on' || definitionTokens > budget.threshold * budget.contextWindow) ? 'search' : 'direct';
  const verdicts: ToolVerdict[] = [];
  for (const name of names) {
    const gathered = perServer.find((p) => p.server === name);
    if (!gathered) {
      const state = source.listServers().find((s) => s.name === name)?.state;
      verdicts.push({ server: name, offered: false, reason: 'server-not-ready', ...(state ? { state } : {}) });
      continue;
    }
    for (const v of gathered.verdicts) {
      // Deferred: reachable only through search_tools (and run_code), its definition not sent.
      const reason = v.reason === null && mode === 'search' ? 'deferred' : v.reason;
      verdicts.push({ server: name, tool: v.tool, offered: reason === null || reason === 'needs-approval', reason });
    }
  }
  return { index, mode, definitionTokens, ready, unavailable, ...(consentNeeded ? { consentNeeded } : {}), verdicts };
}

type ServerRead = { name: string; tools: readonly Tool[]; instructions?: string; changes: string[] } | { name: string; error: HarborError };

async function readServer(source: OfferSource, name: string): Promise<ServerRead> {
  try {
    const [catalog, instructions, changes] = await Promise.all([source.catalog(name), source.instructions?.(name), source.toolChanges?.(name)]);
    return { name, tools: catalog.tools, changes: (changes ?? []).map((c) => c.tool), ...(instructions ? { instructions } : {}) };
  } catch (error) {
    // An error Harbor does not recognise is INTERNAL, never relabelled a connection failure.
    return { name, error: asHarborError(error) };
  }
}
