import { domainToASCII, domainToUnicode } from 'node:url';
import { readsAs } from './lookalike-letters';

/**
 * The one place that decides whether a host or a name is a look-alike: letters of more than one
 * script in one name or one label of a host (`gіthub.com` with a Cyrillic і, `harbor-nоtes` with
 * a Cyrillic о); or a name or label whose every letter outside ASCII imitates an ASCII one, so it
 * reads as a plain Latin name (`аррӏе.com` wholly in Cyrillic, `ɡithub.com` with a Latin ɡ,
 * lookalike-letters.ts), and how a host is shown (its Unicode form beside its punycode). Installs, imports
 * and deep links warn about such a name and write it only when the person confirms
 * (`--allow-lookalike`). A remote URL with a user name or password (`https://github.com@evil/…`)
 * is refused outright: it reads as one host and goes to another.
 */

const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['CJK', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
];

/** The scripts of the letters in `text` (digits, punctuation and marks belong to none). */
function scriptsOf(text: string): Set<string> {
  const found = new Set<string>();
  for (const char of text) {
    const script = SCRIPTS.find(([, pattern]) => pattern.test(char));
    if (script) found.add(script[0]);
  }
  return found;
}

/** Does this name mix letters of two scripts (CJK with Latin counts, as Japanese names may)? */
export function isMixedScript(text: string): boolean {
  const scripts = scriptsOf(text);
  if (scripts.size === 2 && scripts.has('CJK') && scripts.has('Latin')) return false;
  return scripts.size > 1;
}

/** A host as the person should see it: its Unicode form and its punycode (equal for a plain ASCII host). */
export function hostForms(url: string): { readonly unicode: string; readonly ascii: string } | undefined {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined; // not a URL: the schema says so where it matters
  }
  const ascii = domainToASCII(host) || host;
  return { unicode: domainToUnicode(ascii) || host, ascii };
}

/** What is look-alike about a server: its name, its URL's host; empty when nothing is. */
export function lookalikeProblems(name: string, url?: string): string[] {
  const problems: string[] = [];
  const nameReads = readsAs(name);
  if (isMixedScript(name)) problems.push(`the name "${name}" mixes scripts (${[...scriptsOf(name)].join(' and ')}): it may imitate another name${nameReads ? ` (it reads as "${nameReads}")` : ''}`);
  else if (nameReads) problems.push(`the name "${name}" is written in letters that look like Latin ones: it reads as "${nameReads}"`);
  const forms = url === undefined ? undefined : hostForms(url);
  if (forms === undefined) return problems;
  const labels = forms.unicode.split('.');
  const hostReads = labels.some((label) => readsAs(label) !== undefined) ? labels.map((label) => readsAs(label) ?? label).join('.') : undefined;
  if (labels.some(isMixedScript)) problems.push(`the host ${forms.unicode} (${forms.ascii}) mixes scripts: it may imitate another host${hostReads ? ` (it reads as ${hostReads})` : ''}`);
  else if (hostReads) problems.push(`the host ${forms.unicode} (${forms.ascii}) is written in letters that look like Latin ones: it reads as ${hostReads}`);
  return problems;
}
