import type { EventPayload, ToolSearchHit } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { ToolSearchIndex, type IndexChange, type ToolSearchMatch, type ToolSearchOptions } from '../tools/search-index';
import { DEFAULT_TOOL_SEARCH_LIMIT } from '../tools/search';
import type { ServerControl } from './server-control';

/**
 * The Host's one tool search, shared by the chat's `search_tools`, the app and the CLI. It follows
 * the servers: a server that becomes ready, or whose tool list changed (`list_changed`, the listen
 * stream), updates only its own tools in the index; a server removed or disabled leaves it. A
 * stopped server keeps its tools, as its catalog does.
 */
export class ToolSearch implements Disposable {
  private readonly index = new ToolSearchIndex();
  private readonly listening: Disposable;

  constructor(
    private readonly servers: ServerControl,
    events: HostEvents,
  ) {
    this.listening = events.onEvent('servers.changed', (change) => this.onServerChange(change));
    trackDisposable(this);
  }

  /** The best matches over every known server's tools, each with its title and description. */
  search(query: string, limit = DEFAULT_TOOL_SEARCH_LIMIT): ToolSearchHit[] {
    return this.index.search(query, { limit }).map((match) => {
      const tool = this.tool(match);
      return {
        server: match.server,
        tool: match.tool,
        score: match.score,
        ...(tool?.title ? { title: tool.title } : {}),
        ...(tool?.description ? { description: tool.description } : {}),
      };
    });
  }

  /** The ranking alone, for callers that hold the tools themselves (a chat turn). */
  rank(query: string, options: ToolSearchOptions): ToolSearchMatch[] {
    return this.index.search(query, options);
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.index.size;
  }

  private onServerChange(change: EventPayload<'servers.changed'>): void {
    const relevant =
      change.reason === 'config' ||
      change.reason === 'removed' ||
      (change.reason === 'catalog' && change.changed?.includes('tools') === true) ||
      (change.reason === 'state' && change.summary?.state.kind === 'ready');
    if (relevant) this.sync(change.name);
  }

  /** Brings one server's tools in the index in line with its catalog (none when it cannot run). */
  private sync(server: string): IndexChange {
    return this.index.setServer(server, this.catalogTools(server));
  }

  private catalogTools(server: string) {
    try {
      return this.servers.connection(server).catalog.tools;
    } catch {
      return []; // removed, disabled or misconfigured: nothing of it to find
    }
  }

  private tool(match: ToolSearchMatch) {
    return this.catalogTools(match.server).find((t) => t.name === match.tool);
  }

  dispose(): void {
    markAsDisposed(this);
    void this.listening.dispose();
  }
}
