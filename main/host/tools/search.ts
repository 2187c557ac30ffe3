import type { ToolSearchMatch, ToolSearchOptions } from './search-index';
import type { ToolIndex } from './tool-index';

export interface SearchHit {
  /** The exposed name to pass to call_tool. */
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: unknown;
  readonly score: number;
}

/** Matches search_tools returns the model when it names no limit, and the most it may ask for. */
export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;
/** Matches a person gets when naming no limit (`harbor tools --search`, the app's tool search). */
export const DEFAULT_TOOL_SEARCH_LIMIT = 10;

/** Ranks tools for a query: the Host's one ToolSearchIndex, as its search service lends it. */
export type ToolRanker = (query: string, options: ToolSearchOptions) => readonly ToolSearchMatch[];

/**
 * The chat's `search_tools`: the Host's shared ranking, limited to the tools this turn offers
 * (enabled, of the servers it reached), each hit as the model sees that tool — its exposed name
 * for call_tool, its server-prefixed description and its provider input schema.
 */
export function searchTurnTools(rank: ToolRanker, index: ToolIndex, query: string, limit = DEFAULT_SEARCH_LIMIT): SearchHit[] {
  const n = Math.min(Math.max(1, Math.floor(Number.isFinite(limit) ? limit : DEFAULT_SEARCH_LIMIT)), MAX_SEARCH_LIMIT);
  return rank(query, { limit: n, accept: (server, tool) => index.find(server, tool) !== undefined }).flatMap(({ server, tool, score }) => {
    const entry = index.find(server, tool);
    if (!entry) return [];
    return [
      {
        name: entry.exposedName,
        server,
        tool,
        ...(entry.tool.title ? { title: entry.tool.title } : {}),
        description: entry.tool.description ?? '',
        inputSchema: entry.inputSchema,
        score,
      },
    ];
  });
}
