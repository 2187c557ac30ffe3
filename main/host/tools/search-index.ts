import type { Tool } from '@modelcontextprotocol/client';
import MiniSearch, { type Query, type SearchOptions } from 'minisearch';
import { relatedActionWords, searchTerm, searchWords } from './search-terms';

/** One tool as the index holds it: the text of each searchable field. */
interface ToolDocument {
  readonly id: number;
  readonly server: string;
  readonly tool: string;
  readonly title: string;
  readonly description: string;
  /** Parameter names, titles, descriptions and enum values. */
  readonly params: string;
  /** Every field above joined: an unchanged signature means nothing to re-index. */
  readonly signature: string;
}

export interface ToolSearchMatch {
  readonly server: string;
  /** The tool's name as its server gives it. */
  readonly tool: string;
  /** BM25 relevance: higher is better; comparable within one search only. */
  readonly score: number;
}

export interface ToolSearchOptions {
  /** At most this many matches (at least 1). */
  readonly limit: number;
  /** Only tools this accepts are ranked (e.g. a chat turn's enabled tools). */
  readonly accept?: (server: string, tool: string) => boolean;
  /**
   * The query is a search box being typed in, not a model's question: every word must match
   * somewhere (each word typed narrows the list), the last word as a prefix however short it is
   * ("ech" finds "echo"), and no related action words are added.
   */
  readonly asYouType?: boolean;
}

/** What one update of a server's tools did to the index. */
export interface IndexChange {
  readonly added: number;
  readonly replaced: number;
  readonly removed: number;
}

const FIELDS = ['tool', 'title', 'description', 'params', 'server'] as const;

/**
 * How much a query word found in each field counts. A tool's name says what it does most
 * precisely; its title and its server ("github", "slack") nearly as much; the description is the
 * longest and the most general; parameter text ("repo_path", "timezone") decides close calls.
 */
const BOOST: Record<(typeof FIELDS)[number], number> = { tool: 3, title: 2, server: 2, description: 1, params: 0.5 };

const SEARCH: SearchOptions = {
  boost: BOOST,
  combineWith: 'OR',
  // "calc" finds "calculate"; short words would match too much.
  prefix: (term) => term.length >= 4,
  // One typo in a longer word ("reposiroty").
  fuzzy: (term) => (term.length >= 6 ? 1 : false),
  weights: { prefix: 0.3, fuzzy: 0.2 },
};

/** How much a related action word counts against the word the query used ("fetch" for "download"). */
const RELATED_WEIGHT = 0.3;
const RELATED_BOOST = Object.fromEntries(Object.entries(BOOST).map(([field, boost]) => [field, boost * RELATED_WEIGHT]));

/** A search box's query: every word, the last one (still being typed) as a prefix. */
const AS_YOU_TYPE: SearchOptions = {
  combineWith: 'AND',
  prefix: (term, index, terms) => index === terms.length - 1 || term.length >= 4,
};

/**
 * A search box's query, scored twice: once over every field, and again over the tool's name and
 * title alone (the same words, all of them), so "git comm" puts git_commit above a tool whose
 * parameters only mention commits. The second part finds nothing the first does not.
 */
function typedQuery(query: string): Query {
  return { combineWith: 'OR', queries: [{ ...AS_YOU_TYPE, queries: [query] }, { ...AS_YOU_TYPE, fields: ['tool', 'title'], queries: [query] }] };
}

/** The query as typed, OR its related action words at a fraction of the weight (exact words only). */
function expand(query: string): Query {
  const related = relatedActionWords(query);
  if (related.length === 0) return query;
  return { combineWith: 'OR', queries: [query, { queries: [related.join(' ')], boost: RELATED_BOOST, prefix: false, fuzzy: false }] };
}

/** A JSON Schema's top-level parameters as searchable text. */
function parameterText(schema: unknown): string {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (!properties || typeof properties !== 'object') return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
    parts.push(name);
    if (!value || typeof value !== 'object') continue;
    const property = value as { title?: unknown; description?: unknown; enum?: unknown };
    if (typeof property.title === 'string') parts.push(property.title);
    if (typeof property.description === 'string') parts.push(property.description);
    if (Array.isArray(property.enum)) parts.push(...property.enum.filter((v): v is string => typeof v === 'string'));
  }
  return parts.join('\n');
}

/**
 * The one tool search of the Host: BM25 ranking (MiniSearch) over every known tool's name, title,
 * description and parameters, with its server as a field. Kept current per server and per tool:
 * a changed catalog adds, replaces and removes only the tools that changed, so a `list_changed`
 * costs what changed, not a rebuild of thousands of tools.
 */
export class ToolSearchIndex {
  private readonly engine = new MiniSearch<ToolDocument>({
    fields: [...FIELDS],
    tokenize: searchWords,
    processTerm: searchTerm,
    searchOptions: SEARCH,
    autoVacuum: false,
  });
  private readonly byServer = new Map<string, Map<string, ToolDocument>>();
  private readonly byId = new Map<number, ToolDocument>();
  private nextId = 1;

  /** Makes the index hold exactly `tools` for `server`, touching only what differs. */
  setServer(server: string, tools: readonly Tool[]): IndexChange {
    const before = this.byServer.get(server) ?? new Map<string, ToolDocument>();
    const after = new Map<string, ToolDocument>();
    let added = 0;
    let replaced = 0;
    for (const tool of tools) {
      if (after.has(tool.name)) continue; // a server listing a name twice: its first definition
      const previous = before.get(tool.name);
      const next = this.document(server, tool, previous?.id);
      if (previous && previous.signature === next.signature) {
        after.set(tool.name, previous);
        continue;
      }
      // remove + add rather than MiniSearch's replace (a discard): the index stays exact, with
      // nothing left over for a background vacuum to clean up.
      if (previous) {
        this.engine.remove(previous);
        replaced += 1;
      } else {
        added += 1;
      }
      this.engine.add(next);
      this.byId.set(next.id, next);
      after.set(tool.name, next);
    }
    let removed = 0;
    for (const [name, document] of before) {
      if (after.has(name)) continue;
      this.engine.remove(document);
      this.byId.delete(document.id);
      removed += 1;
    }
    if (after.size > 0) this.byServer.set(server, after);
    else this.byServer.delete(server);
    return { added, replaced, removed };
  }

  /** Forgets a server's tools (it was removed or disabled); returns how many there were. */
  removeServer(server: string): number {
    return this.setServer(server, []).removed;
  }

  /** Best matches first; ties by server, then tool name, so the same query always gives the same list. */
  search(query: string, options: ToolSearchOptions): ToolSearchMatch[] {
    const limit = Math.max(1, Math.floor(options.limit));
    const accept = options.accept;
    const filter: SearchOptions = accept ? { filter: (r) => this.accepts(r.id as number, accept) } : {};
    const results = options.asYouType ? this.engine.search(typedQuery(query), filter) : this.engine.search(expand(query), filter);
    return results
      .map((r) => ({ document: this.byId.get(r.id as number)!, score: r.score }))
      .sort((a, b) => b.score - a.score || compare(a.document.server, b.document.server) || compare(a.document.tool, b.document.tool))
      .slice(0, limit)
      .map(({ document, score }) => ({ server: document.server, tool: document.tool, score }));
  }

  has(server: string, tool: string): boolean {
    return this.byServer.get(server)?.has(tool) ?? false;
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.byId.size;
  }

  private accepts(id: number, accept: NonNullable<ToolSearchOptions['accept']>): boolean {
    const document = this.byId.get(id);
    return document !== undefined && accept(document.server, document.tool);
  }

  private document(server: string, tool: Tool, id: number | undefined): ToolDocument {
    const title = tool.title ?? tool.annotations?.title ?? '';
    const description = tool.description ?? '';
    const params = parameterText(tool.inputSchema);
    return {
      id: id ?? this.nextId++,
      server,
      tool: tool.name,
      title,
      description,
      params,
      signature: [tool.name, title, description, params].join('\u0000'),
    };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
