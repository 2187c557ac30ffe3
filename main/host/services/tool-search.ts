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
 *
 * A change marks its server; the index catches up on the marked servers when it is next searched.
 * Connecting 50 servers therefore never waits on indexing, and a Host that is never searched
 * (`harbor call`, `harbor tools` without --search) never indexes at all.
 */
export class ToolSearch implements Disposable {
  private readonly index = new ToolSearchIndex();
  private readonly listening: Disposable;
  /** Servers whose tools changed since the index last caught up. */
  private readonly stale = new Set<string>();

  constructor(
    private readonly servers: ServerControl,
    events: HostEvents,
  ) {
    this.listening = events.onEvent('servers.changed', (change) => this.onServerChange(change));
    trackDisposable(this);
  }

  /**
   * The best matches over every known server's tools (or one server's), each with its title and
   * description; `asYouType` for a search box (see ToolSearchOptions).
   */
  search(query: string, limit = DEFAULT_TOOL_SEARCH_LIMIT, filter: { readonly server?: string; readonly asYouType?: boolean } = {}): ToolSearchHit[] {
    this.catchUp();
    const { server, asYouType } = filter;
    const options: ToolSearchOptions = { limit, ...(asYouType ? { asYouType } : {}), ...(server === undefined ? {} : { accept: (s: string) => s === server }) };
    return this.index.search(query, options).map((match) => {
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
    this.catchUp();
    return this.index.search(query, options);
  }

  /** How many tools the index holds. */
  get size(): number {
    this.catchUp();
    return this.index.size;
  }

  private onServerChange(change: EventPayload<'servers.changed'>): void {
    const relevant =
      change.reason === 'config' ||
      change.reason === 'removed' ||
      (change.reason === 'catalog' && change.changed?.includes('tools') === true) ||
      (change.reason === 'state' && change.summary?.state.kind === 'ready');
    if (relevant) this.stale.add(change.name);
  }

  /** Brings each changed server's tools in the index in line with its catalog (none when it cannot run). */
  private catchUp(): IndexChange[] {
    const changes = [...this.stale].map((server) => this.index.setServer(server, this.catalogTools(server)));
    this.stale.clear();
    return changes;
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
