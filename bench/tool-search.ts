/**
 * Tool search among thousands, and whether it finds the right tool.
 *
 * - Latency: the chat's search_tools path (the shared index's BM25 ranking, limited to a turn's
 *   tools, hits mapped to what the model sees) over 2,000 tools — the 116 tools of 16 real
 *   servers, copied under other server names up to 2,000 — for the 124 labelled queries, many
 *   times over, in this process. Beside it: building the index, and one server's list_changed
 *   applied incrementally against a rebuild of everything.
 * - Relevance on the real servers' tools (test/fixtures/tool-catalogs): through a real chat turn
 *   — a real Host with the 16 recorded servers over stdio, tool search on, a scripted model that
 *   calls search_tools once per labelled query — is the right tool among the matches search_tools
 *   returns (5 by default)? And the mean reciprocal rank of the right tool in the index's ranking.
 */
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { searchTurnTools, DEFAULT_SEARCH_LIMIT } from '../main/host/tools/search';
import { ToolSearchIndex } from '../main/host/tools/search-index';
import { ToolIndex } from '../main/host/tools/tool-index';
import { startScriptedModel } from '../test/fixtures/model/scripted-model';
import { catalogServerScript, loadCatalogs, loadQueries, relevance, rankOf, type LabelledQuery, type RecordedCatalog } from '../test/fixtures/tool-catalogs/relevance';
import type { Figure } from './result';
import { REPO, assertAllReady, createBenchHost, marker, median, nodeServer, now, percentile } from './support';

export interface ToolSearchOptions {
  /** Tools in the latency index. */
  readonly tools: number;
  /** Timed searches (the labelled queries, round-robin). */
  readonly searches: number;
}

const CATALOGS = join(REPO, 'test/fixtures/tool-catalogs');
const LATENCY_TARGET_MS = 5;
const TOP5_TARGET = 95;
const MRR_TARGET = 0.85;

/** `count` tools: the recorded catalogs again and again, each copy under its own server name. */
function manyServers(catalogs: readonly RecordedCatalog[], count: number): { server: string; tools: readonly Tool[] }[] {
  const servers: { server: string; tools: Tool[] }[] = [];
  let total = 0;
  for (let copy = 1; total < count; copy += 1) {
    for (const c of catalogs) {
      if (total >= count) break;
      const tools = c.tools.slice(0, count - total);
      servers.push({ server: copy === 1 ? c.server : `${c.server}-${copy}`, tools: [...tools] });
      total += tools.length;
    }
  }
  return servers;
}

function buildIndex(servers: readonly { server: string; tools: readonly Tool[] }[]): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const s of servers) index.setServer(s.server, s.tools);
  return index;
}

interface Latency {
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly rawMedianMs: number;
  readonly buildMs: number;
  readonly updateMs: number;
  readonly rebuildMs: number;
  readonly servers: number;
}

function measureLatency(catalogs: readonly RecordedCatalog[], queries: readonly LabelledQuery[], options: ToolSearchOptions): Latency {
  const servers = manyServers(catalogs, options.tools);
  const builds: number[] = [];
  let index = buildIndex(servers);
  for (let i = 0; i < 5; i += 1) {
    const started = now();
    index = buildIndex(servers);
    builds.push(now() - started);
  }
  const turn = ToolIndex.build(servers);
  const rank = (query: string, o: Parameters<ToolSearchIndex['search']>[1]) => index.search(query, o);
  // Warm up the JIT on every query once.
  for (const q of queries) searchTurnTools(rank, turn, q.query);
  const chat: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < options.searches; i += 1) {
    const query = queries[i % queries.length]!.query;
    let started = now();
    searchTurnTools(rank, turn, query);
    chat.push(now() - started);
    started = now();
    index.search(query, { limit: DEFAULT_SEARCH_LIMIT });
    raw.push(now() - started);
  }
  // One tool of one server changed (a list_changed): re-index that server, against a full rebuild.
  const target = servers[0]!;
  const updates: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const changed = target.tools.map((t, n) => (n === 0 ? { ...t, description: `${t.description ?? ''} (revision ${i})` } : t));
    const started = now();
    index.setServer(target.server, changed);
    updates.push(now() - started);
  }
  return {
    medianMs: median(chat),
    p95Ms: percentile(chat, 95),
    rawMedianMs: median(raw),
    buildMs: median(builds),
    updateMs: median(updates),
    rebuildMs: median(builds),
    servers: servers.length,
  };
}

interface ChatFinding {
  /** Per query: the 1-based rank of the right tool among search_tools' matches (0: not there). */
  readonly ranks: ReadonlyMap<string, number>;
  readonly searchCalls: number;
}

/**
 * One chat turn in which the model calls search_tools once per query (no limit: the default),
 * against a real Host whose 16 servers serve the recorded catalogs.
 */
async function findThroughChat(catalogs: readonly RecordedCatalog[], queries: readonly LabelledQuery[]): Promise<ChatFinding> {
  const calls = queries.map((q, i) => ({ name: 'search_tools', arguments: { query: q.query }, id: `search_${i}` }));
  const model = await startScriptedModel({ script: [{ toolCalls: calls }, { text: 'done' }] });
  const mark = marker('tool-search-chat');
  const script = catalogServerScript(CATALOGS);
  const servers = Object.fromEntries(catalogs.map((c) => [c.server, nodeServer(script, ['--catalog', c.path], mark)]));
  const { host, dispose } = await createBenchHost('tool-search-chat', servers, { registry: { model: model.modelConfig(), chat: { toolSearch: 'on', codeMode: 'off' } } });
  try {
    const outcome = await (await host.chat.send({ text: 'Find the tools for these tasks.', approveOnce: true })).done;
    if (outcome.status !== 'completed') throw new Error(`the chat turn ended ${outcome.status}: ${outcome.note ?? ''}`);
    assertAllReady(host);
    const answers = model.requests[1]?.toolResults ?? [];
    const ranks = new Map<string, number>();
    queries.forEach((q, i) => {
      const answer = answers.find((a) => a.toolCallId === `search_${i}`);
      const matches = answer ? ((JSON.parse(answer.content) as { matches: { server: string; tool: string }[] }).matches ?? []) : [];
      ranks.set(q.query, rankOf(q, matches));
    });
    return { ranks, searchCalls: answers.length };
  } finally {
    await dispose();
    await model.close();
  }
}

export async function benchToolSearch(options: ToolSearchOptions): Promise<Figure[]> {
  const catalogs = loadCatalogs(CATALOGS);
  const sets = { development: loadQueries('development', CATALOGS), 'held-out': loadQueries('held-out', CATALOGS) };
  const queries = [...sets.development, ...sets['held-out']];
  const realTools = catalogs.reduce((n, c) => n + c.tools.length, 0);

  const latency = measureLatency(catalogs, queries, options);

  const index = buildIndex(catalogs);
  const ranking = (query: string) => index.search(query, { limit: 20 });
  const bySet = Object.entries(sets).map(([set, qs]) => ({ set, figures: relevance(qs, ranking, DEFAULT_SEARCH_LIMIT) }));
  const all = relevance(queries, ranking, DEFAULT_SEARCH_LIMIT);

  const chat = await findThroughChat(catalogs, queries);
  const found = queries.filter((q) => {
    const rank = chat.ranks.get(q.query) ?? 0;
    return rank > 0 && rank <= DEFAULT_SEARCH_LIMIT;
  });
  const missedInChat = queries.filter((q) => !found.includes(q)).map((q) => `"${q.query}" (${chat.ranks.get(q.query) ? `rank ${chat.ranks.get(q.query)}` : 'not among the matches'})`);
  const problems = chat.searchCalls === queries.length ? [] : [`the model got ${chat.searchCalls} search_tools answers for ${queries.length} calls`];
  const setNote = bySet.map(({ set, figures }) => `${set} ${figures.queries} queries: top 5 ${figures.topK}, top 1 ${figures.top1}, MRR ${figures.mrr.toFixed(3)}`).join('; ');

  return [
    {
      name: `tool search latency (${options.tools} tools)`,
      value: latency.medianMs,
      unit: 'ms',
      target: { at: 'most', value: LATENCY_TARGET_MS },
      measured: `median of ${options.searches} searches as search_tools makes them, p95 ${latency.p95Ms.toFixed(2)} ms`,
      problems: [],
      notes: [
        `${options.tools} tools on ${latency.servers} servers: the ${realTools} tools of ${catalogs.length} real servers copied under other server names; the ${queries.length} labelled queries round-robin`,
        `the index's ranking alone: median ${latency.rawMedianMs.toFixed(2)} ms; building the index of ${options.tools} tools: ${latency.buildMs.toFixed(0)} ms`,
        `one server's list_changed (1 of its tools changed), applied to the index: ${latency.updateMs.toFixed(2)} ms, against ${latency.rebuildMs.toFixed(0)} ms for rebuilding everything`,
      ],
    },
    {
      name: 'tool search: right tool in one search_tools call (top 5)',
      value: (found.length / queries.length) * 100,
      unit: '%',
      target: { at: 'least', value: TOP5_TARGET },
      measured: `${found.length} of ${queries.length} labelled queries over ${realTools} tools of ${catalogs.length} real servers, through a real chat turn`,
      problems,
      notes: [
        `a real Host with the ${catalogs.length} recorded servers over stdio, tool search on, a scripted model calling search_tools once per query (default limit ${DEFAULT_SEARCH_LIMIT})`,
        ...(missedInChat.length > 0 ? [`not found in one search: ${missedInChat.join(', ')}`] : []),
      ],
    },
    {
      name: 'tool search: mean reciprocal rank',
      value: all.mrr,
      unit: '',
      target: { at: 'least', value: MRR_TARGET },
      measured: `right tool first for ${all.top1} of ${all.queries} queries (BM25 over name, title, description, parameters, server)`,
      problems: [],
      notes: [setNote, 'development: written before the ranking was built and used to choose it; held-out: written after, never used to change it'],
    },
  ];
}
