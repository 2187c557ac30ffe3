import { stemmer } from 'stemmer';

/**
 * Words that say nothing about which tool is meant ("a tool to get the …"). BM25 already weighs
 * frequent words down; dropping these also keeps a query made only of them from matching everything.
 */
const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'for', 'from', 'i', 'in', 'into', 'is', 'it',
  'me', 'my', 'of', 'on', 'or', 'some', 'that', 'the', 'this', 'to', 'tool', 'tools', 'use', 'with',
]);

/** Lower-case words: camelCase, snake_case, kebab-case and punctuation split apart. */
export function searchWords(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** Stems already computed: tool text repeats its words, and stemming is most of indexing's cost. */
const stems = new Map<string, string>();
/** Bounded: servers' text is untrusted, and their vocabulary could grow without end. */
const MAX_STEMS = 50_000;

/**
 * The index term of one word: its Porter stem ("directories" and "directory" meet, so do
 * "commits" and "committed"), or null for a stop word.
 */
export function searchTerm(word: string): string | null {
  if (STOP_WORDS.has(word)) return null;
  if (!/^[a-z]+$/.test(word)) return word;
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= MAX_STEMS) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}

/**
 * The verbs tool names are made of, in groups of words people and models use for the same action:
 * a query for "download a page" should find a tool that says "fetch". Only the action words of
 * tools, nothing about any one server's domain.
 */
const ACTION_WORDS: readonly (readonly string[])[] = [
  ['create', 'add', 'new', 'make'],
  ['read', 'get', 'fetch', 'retrieve', 'view', 'show', 'load', 'download'],
  ['update', 'edit', 'modify', 'change'],
  ['delete', 'remove', 'erase'],
  ['find', 'search', 'query', 'lookup'],
  ['send', 'post', 'publish'],
  ['run', 'execute', 'evaluate', 'invoke'],
];

/** The other words of the action groups a query's words belong to (none when it names no action). */
export function relatedActionWords(query: string): string[] {
  const words = new Set(searchWords(query));
  const related = new Set<string>();
  for (const group of ACTION_WORDS) {
    if (!group.some((w) => words.has(w))) continue;
    for (const w of group) if (!words.has(w)) related.add(w);
  }
  return [...related];
}

/** The index terms of a text, in order, stop words left out. */
export function keywords(text: string): string[] {
  return searchWords(text).flatMap((w) => searchTerm(w) ?? []);
}
