import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_LIMIT, searchTurnTools } from '../../main/host/tools/search';
import { ToolSearchIndex } from '../../main/host/tools/search-index';
import { keywords } from '../../main/host/tools/search-terms';
import { ToolIndex, type ServerTools } from '../../main/host/tools/tool-index';
import { loadCatalogs, loadQueries, relevance } from '../fixtures/tool-catalogs/relevance';

const SERVERS: ServerTools[] = [
  {
    server: 'github',
    tools: [
      { name: 'create_issue', title: 'Create issue', description: 'Open a new issue in a repository.', inputSchema: { type: 'object' } },
      { name: 'list_issues', description: 'List the issues of a repository.', inputSchema: { type: 'object' } },
      { name: 'get_file_contents', description: 'Read a file from a repository.', inputSchema: { type: 'object' } },
    ],
  },
  {
    server: 'filesystem',
    tools: [
      { name: 'read_file', description: 'Read the complete contents of a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'write_file', description: 'Create or overwrite a file.', inputSchema: { type: 'object' } },
    ],
  },
  { server: 'math', tools: [{ name: 'getSum', description: 'Returns the sum of two numbers', inputSchema: { type: 'object' } }] },
];

function indexOf(servers: readonly ServerTools[]): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const s of servers) index.setServer(s.server, s.tools);
  return index;
}

const turn = ToolIndex.build(SERVERS);
const shared = indexOf(SERVERS);
const search = (query: string, limit?: number) => searchTurnTools((q, o) => shared.search(q, o), turn, query, limit);

describe('search terms', () => {
  it('splits names into words, drops stop words and stems the rest', () => {
    expect(keywords('getSum read_file list-issues The Files HTTPServer')).toEqual(['get', 'sum', 'read', 'file', 'list', 'issu', 'file', 'http', 'server']);
    expect(keywords('directories')).toEqual(keywords('directory'));
  });
});

describe("the chat's search_tools over the shared index", () => {
  it('finds the tool whose name says it first', () => {
    const files = search('read file').map((h) => h.name);
    expect(files[0]).toBe('filesystem__read_file');
    expect(files.slice(1, 3)).toContain('github__get_file_contents');
    expect(search('create an issue')[0]!.name).toBe('github__create_issue');
    expect(search('sum of numbers')[0]).toMatchObject({ name: 'math__getSum', server: 'math', tool: 'getSum' });
  });

  it('uses server names too', () => {
    expect(search('github').map((h) => h.server)).toEqual(['github', 'github', 'github']);
  });

  it('returns name, server, description and input schema, within the limit', () => {
    const hits = search('read file', 2);
    expect(hits).toHaveLength(2);
    expect(hits[0]).toEqual({
      name: 'filesystem__read_file',
      server: 'filesystem',
      tool: 'read_file',
      description: 'Read the complete contents of a file.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      score: expect.any(Number),
    });
    expect(search('file', 500).length).toBeLessThanOrEqual(20);
    expect(search('file', Number.NaN).length).toBeLessThanOrEqual(DEFAULT_SEARCH_LIMIT);
  });

  it('is deterministic: the same tools in another order give the same list, ties by server then name', () => {
    const reversed = indexOf([...SERVERS].reverse().map((s) => ({ ...s, tools: [...s.tools].reverse() })));
    const a = search('repository').map((h) => h.name);
    const b = searchTurnTools((q, o) => reversed.search(q, o), turn, 'repository').map((h) => h.name);
    expect(a).toEqual(b);
    // create_issue and list_issues score the same: by name.
    expect(a).toEqual(['github__get_file_contents', 'github__create_issue', 'github__list_issues']);
  });

  it('returns nothing for an empty or stop-word query, or no match', () => {
    expect(search('')).toEqual([]);
    expect(search('the of and')).toEqual([]);
    expect(search('weather forecast')).toEqual([]);
  });

  it('offers only the tools of the turn: a tool turned off is never found', () => {
    const withoutRead = ToolIndex.build(SERVERS.map((s) => (s.server === 'filesystem' ? { ...s, disabled: new Set(['read_file']) } : s)));
    const names = searchTurnTools((q, o) => shared.search(q, o), withoutRead, 'read file').map((h) => h.name);
    expect(names).not.toContain('filesystem__read_file');
    expect(names[0]).toBe('github__get_file_contents');
  });
});

describe('ToolSearchIndex', () => {
  const tool = (name: string, description: string, properties: Tool['inputSchema']['properties'] = {}): Tool => ({ name, description, inputSchema: { type: 'object', properties } });

  it('updates one server incrementally: adds, replaces and removes only what changed', () => {
    const index = new ToolSearchIndex();
    expect(index.setServer('notes', [tool('list_notes', 'List every note.'), tool('read_note', 'Read one note.')])).toEqual({ added: 2, replaced: 0, removed: 0 });
    expect(index.setServer('notes', [tool('list_notes', 'List every note.'), tool('read_note', 'Read one note.')])).toEqual({ added: 0, replaced: 0, removed: 0 });
    expect(index.search('archive', { limit: 5 })).toEqual([]);
    // A rug pull: read_note now says something else; the old words no longer find it.
    expect(index.setServer('notes', [tool('list_notes', 'List every note.'), tool('read_note', 'Archive a note forever.')])).toEqual({ added: 0, replaced: 1, removed: 0 });
    expect(index.search('archive', { limit: 5 }).map((m) => m.tool)).toEqual(['read_note']);
    expect(index.search('read one', { limit: 5 }).map((m) => m.tool)).toEqual(['read_note']); // by its name only now
    expect(index.setServer('notes', [tool('read_note', 'Archive a note forever.'), tool('tag_note', 'Tag a note.')])).toEqual({ added: 1, replaced: 0, removed: 1 });
    expect(index.has('notes', 'list_notes')).toBe(false);
    expect(index.search('list', { limit: 5 })).toEqual([]);
    expect(index.size).toBe(2);
    expect(index.removeServer('notes')).toBe(2);
    expect(index.size).toBe(0);
    expect(index.search('note', { limit: 5 })).toEqual([]);
  });

  it('keeps servers apart: the same tool name on two servers is two tools', () => {
    const index = new ToolSearchIndex();
    index.setServer('a', [tool('echo', 'Echo the text back.')]);
    index.setServer('b', [tool('echo', 'Echo the text back.')]);
    expect(index.search('echo', { limit: 5 }).map((m) => `${m.server}/${m.tool}`)).toEqual(['a/echo', 'b/echo']);
    index.removeServer('a');
    expect(index.search('echo', { limit: 5 }).map((m) => m.server)).toEqual(['b']);
    expect(index.search('echo', { limit: 5, accept: (server) => server !== 'b' })).toEqual([]);
  });

  it('ranks parameter names, descriptions and enum values, below the name and description', () => {
    const index = new ToolSearchIndex();
    index.setServer('time', [tool('get_current_time', 'Get the current time.', { timezone: { type: 'string', description: 'IANA timezone name' } })]);
    index.setServer('issues', [tool('update_issue', 'Update an issue.', { state: { type: 'string', enum: ['open', 'closed'] } }), tool('close_tab', 'Close the browser tab.')]);
    expect(index.search('timezone', { limit: 5 }).map((m) => m.tool)).toEqual(['get_current_time']);
    expect(index.search('close issue', { limit: 5 }).map((m) => m.tool)).toEqual(['update_issue', 'close_tab']);
  });

  it('matches prefixes, one typo in a long word, and the usual other verbs of an action at a lower weight', () => {
    const index = new ToolSearchIndex();
    index.setServer('web', [tool('fetch', 'Fetches a URL from the internet.'), tool('calculate_route', 'Plan a route.'), tool('search_repositories', 'Search repositories.')]);
    expect(index.search('calc', { limit: 1 })[0]!.tool).toBe('calculate_route');
    expect(index.search('repozitories', { limit: 1 })[0]!.tool).toBe('search_repositories');
    expect(index.search('download a page', { limit: 1 })[0]!.tool).toBe('fetch');
    // The word the query used counts more than a related one.
    index.setServer('files', [tool('download_file', 'Download a file.')]);
    expect(index.search('download', { limit: 2 }).map((m) => m.tool)).toEqual(['download_file', 'fetch']);
  });

  it("as you type (the Tools page's search box): every word must match, the last as a prefix however short", () => {
    const names = (query: string, asYouType: boolean) => shared.search(query, { limit: 10, asYouType }).map((m) => `${m.server}/${m.tool}`);
    // A short unfinished word: no match for a model's question, the tools it starts for a search box.
    expect(names('fil', false)).toEqual([]);
    expect(names('fil', true)).toEqual(expect.arrayContaining(['filesystem/read_file', 'filesystem/write_file', 'github/get_file_contents']));
    // Every word narrows: a question ranks anything with either word, the search box only tools with both.
    expect(names('write repository', false)).toEqual(expect.arrayContaining(['filesystem/write_file', 'github/create_issue']));
    expect(names('write fi', true)).toEqual(['filesystem/write_file']);
    // No related action words are added ("download" would find fetch for a model).
    expect(names('sum', true)).toEqual(['math/getSum']);
    expect(names('nothing like it', true)).toEqual([]);
  });
});

describe('relevance on the tools of real servers', () => {
  const index = new ToolSearchIndex();
  const catalogs = loadCatalogs();
  for (const c of catalogs) index.setServer(c.server, c.tools);
  const rank = (query: string) => index.search(query, { limit: 20 });

  it('holds the recorded catalogs of 16 servers', () => {
    expect(catalogs).toHaveLength(16);
    expect(index.size).toBe(catalogs.reduce((n, c) => n + c.tools.length, 0));
  });

  it('as you type, a tool named by the words typed comes before one whose parameters mention them', () => {
    const typed = (query: string) => index.search(query, { limit: 3, asYouType: true }).map((m) => `${m.server}/${m.tool}`);
    // git_branch's parameters speak of commits ("contains", "not_contains" a commit) many times over.
    expect(typed('git comm')).toEqual(['git/git_commit', 'git/git_branch', 'git/git_log']);
    expect(typed('git st')[0]).toBe('git/git_status');
    expect(typed('creat pull')[0]).toBe('github/create_pull_request');
  });

  // The targets of the benchmark (bench/tool-search.ts): the right tool within search_tools' 5 matches for ≥ 95 % of queries, MRR ≥ 0.85.
  it.each(['development', 'held-out'] as const)('%s queries: the right tool in the top 5 for ≥ 95 %, MRR ≥ 0.85', (set) => {
    const figures = relevance(loadQueries(set), rank, DEFAULT_SEARCH_LIMIT);
    expect(figures.topK / figures.queries, JSON.stringify(figures.misses)).toBeGreaterThanOrEqual(0.95);
    expect(figures.mrr).toBeGreaterThanOrEqual(0.85);
  });
});
