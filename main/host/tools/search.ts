import type { IndexedTool } from './tool-index';

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

export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;

const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'for', 'from', 'get', 'i', 'in', 'is', 'it',
  'me', 'my', 'of', 'on', 'or', 'some', 'that', 'the', 'this', 'to', 'tool', 'tools', 'use', 'with',
]);

/**
 * Lower-case words: camelCase, snake_case, kebab-case and punctuation split apart; a plural "s"
 * dropped so "files" finds "file". Stop words carry no signal and are left out.
 */
export function keywords(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w));
  return words.map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

interface Field {
  readonly words: readonly string[];
  readonly weight: number;
}

function fieldsOf(entry: IndexedTool): Field[] {
  return [
    { words: keywords(entry.tool.name), weight: 4 },
    { words: keywords(entry.tool.title ?? ''), weight: 3 },
    { words: keywords(entry.server), weight: 2 },
    { words: keywords(entry.tool.description ?? ''), weight: 1 },
  ];
}

/** 1 for the same word, ½ when one is a prefix of the other (3+ letters), else 0. */
function match(term: string, word: string): number {
  if (term === word) return 1;
  if (term.length >= 3 && word.length >= 3 && (word.startsWith(term) || term.startsWith(word))) return 0.5;
  return 0;
}

/**
 * Deterministic keyword ranking over tool names, titles, server names and descriptions: for each
 * query word, the best match in each field times the field's weight; a name that contains the
 * whole query gets a bonus. Ties are broken by exposed name, so the same query over the same tools
 * always returns the same list.
 */
export function searchTools(tools: readonly IndexedTool[], query: string, limit = DEFAULT_SEARCH_LIMIT): SearchHit[] {
  const terms = [...new Set(keywords(query))];
  if (terms.length === 0) return [];
  const phrase = terms.join('_');
  const scored = tools.map((entry) => {
    let score = 0;
    for (const field of fieldsOf(entry)) {
      for (const term of terms) {
        let best = 0;
        for (const word of field.words) best = Math.max(best, match(term, word));
        score += best * field.weight;
      }
    }
    if (terms.length > 1 && keywords(entry.tool.name).join('_').includes(phrase)) score += 4;
    return { entry, score };
  });
  const n = Math.min(Math.max(1, Math.floor(limit)), MAX_SEARCH_LIMIT);
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.entry.exposedName < b.entry.exposedName ? -1 : a.entry.exposedName > b.entry.exposedName ? 1 : 0))
    .slice(0, n)
    .map(({ entry, score }) => ({
      name: entry.exposedName,
      server: entry.server,
      tool: entry.tool.name,
      ...(entry.tool.title ? { title: entry.tool.title } : {}),
      description: entry.tool.description ?? '',
      inputSchema: entry.inputSchema,
      score,
    }));
}
