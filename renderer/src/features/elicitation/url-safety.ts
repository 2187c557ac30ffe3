/**
 * A URL a server or a model wants the person to open, taken apart so they can see where it really
 * goes: the registrable domain highlighted, the rest muted, and warnings for the usual tricks
 * (look-alike internationalized names, "bank.com@evil.example", raw IP addresses); plain http and
 * mailto: attachments are refused, as the opener refuses them.
 * Pure: nothing here fetches or opens anything.
 */
import { decode } from 'punycode/punycode.es6.js';

export interface UrlParts {
  readonly scheme: string;
  /** Labels left of the registrable domain, with their trailing dot ("login.eu."). */
  readonly subdomain: string;
  /** The part that names who runs the site ("example.co.uk"), as the browser will resolve it. */
  readonly domain: string;
  readonly port: string;
  /** Path, query and fragment. */
  readonly rest: string;
}

export interface UrlReview {
  /** The URL as the browser would open it (normalized), or the raw text when it does not parse. */
  readonly href: string;
  /** Whether Harbor will open it at all. */
  readonly openable: boolean;
  /** Why it will not be opened (when not openable). */
  readonly problem?: string;
  readonly parts?: UrlParts;
  /** The domain in Unicode when it was written with punycode (xn--…) or non-ASCII letters. */
  readonly unicodeDomain?: string;
  readonly warnings: readonly string[];
}

const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'ac', 'edu', 'ne', 'or', 'go']);
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
/** Letters that exist in Latin look-alike form in other scripts. */
const SCRIPTS: readonly [string, RegExp][] = [
  ['Latin', /[a-z]/i],
  ['Cyrillic', /[\u0400-\u04FF]/],
  ['Greek', /[\u0370-\u03FF]/],
  ['Armenian', /[\u0530-\u058F]/],
  ['Cherokee', /[\u13A0-\u13FF]/],
];

/** Splits a hostname into the labels before the registrable domain and the domain itself (approximate public-suffix rule). */
export function splitHost(hostname: string): { subdomain: string; domain: string } {
  if (IPV4.test(hostname) || hostname.startsWith('[')) return { subdomain: '', domain: hostname };
  const labels = hostname.split('.').filter(Boolean);
  if (labels.length <= 2) return { subdomain: '', domain: hostname };
  const tld = labels.at(-1)!;
  const second = labels.at(-2)!;
  const take = tld.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  const domain = labels.slice(-take).join('.');
  const sub = labels.slice(0, -take).join('.');
  return { subdomain: sub ? `${sub}.` : '', domain };
}

/** RFC 3492 punycode decoding of one label (without its "xn--" prefix), by punycode.js. Undefined when malformed. */
export function decodePunycode(input: string): string | undefined {
  try {
    return decode(input);
  } catch {
    return undefined; // punycode.js throws RangeError on a malformed label: the label is shown as written
  }
}

/** The hostname with every xn-- label decoded (for showing what the name pretends to be). */
export function unicodeHostname(hostname: string): string {
  return hostname
    .split('.')
    .map((label) => (label.toLowerCase().startsWith('xn--') ? (decodePunycode(label.slice(4)) ?? label) : label))
    .join('.');
}

function scriptsOf(text: string): string[] {
  return SCRIPTS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

/**
 * The addresses Harbor's opener hands to the OS (main/window.ts toExternalUrl): https, and for
 * links in the conversation mailto. Plain http is not opened, so no dialog offers it.
 */
export const OPENABLE_SCHEMES = ['https:'] as const;
export const OPENABLE_LINK_SCHEMES = ['https:', 'mailto:'] as const;

/** A mailto: that asks the mail client to attach a file (attach=, attachment=): the opener refuses it. */
function attachesFiles(url: URL): boolean {
  return [...url.searchParams.keys()].some((key) => key.trim().toLowerCase().startsWith('attach'));
}

/**
 * Reviews a URL before it may be opened in the system browser. `schemes` are the ones allowed
 * (elicitation: https; a chat link may also be mailto).
 */
export function reviewUrl(raw: string, schemes: readonly string[] = OPENABLE_SCHEMES): UrlReview {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { href: raw, openable: false, problem: 'This is not a valid web address.', warnings: [] };
  }
  if (!schemes.includes(url.protocol)) {
    const problem =
      url.protocol === 'http:'
        ? 'Harbor opens only encrypted (https) web addresses, and this one is plain http: anyone on the network could read or change the page. Copy it into your browser yourself if you trust it.'
        : `Harbor does not open "${url.protocol}" addresses, only ${schemes.map((s) => s.replace(':', '')).join(' and ')}.`;
    return { href: url.href, openable: false, problem, warnings: [] };
  }
  if (url.protocol === 'mailto:') {
    const parts = { scheme: 'mailto:', subdomain: '', domain: decodeURIComponent(url.pathname), port: '', rest: url.search };
    if (attachesFiles(url)) {
      return { href: url.href, openable: false, parts, problem: 'This e-mail link asks your mail program to attach a file from your computer. Harbor does not open such links.', warnings: [] };
    }
    return { href: url.href, openable: url.pathname !== '', parts, warnings: [] };
  }
  const warnings: string[] = [];
  if (url.username || url.password) {
    return {
      href: url.href,
      openable: false,
      problem: `The address hides where it goes: "${decodeURIComponent(url.username)}" before the "@" is not the site; the site is ${url.hostname}. Harbor does not open addresses with a user name or password in them.`,
      warnings,
    };
  }
  const { subdomain, domain } = splitHost(url.hostname);
  const unicode = unicodeHostname(url.hostname);
  const international = unicode !== url.hostname;
  if (international) {
    warnings.push(
      `The name uses international letters: it reads "${unicode}" but is really ${url.hostname}. Such names can imitate a well-known site with look-alike letters — check it is the site you expect.`,
    );
    for (const label of unicode.split('.')) {
      const scripts = scriptsOf(label);
      if (scripts.length > 1) {
        warnings.push(`"${label}" mixes ${scripts.join(' and ')} letters, a common trick to look like another site.`);
        break;
      }
    }
  }
  if (IPV4.test(url.hostname) || url.hostname.startsWith('[')) warnings.push('It points at a bare IP address, not a named site.');
  return {
    href: url.href,
    openable: true,
    parts: { scheme: `${url.protocol}//`, subdomain, domain, port: url.port ? `:${url.port}` : '', rest: `${url.pathname}${url.search}${url.hash}` },
    ...(international ? { unicodeDomain: unicode } : {}),
    warnings,
  };
}

/**
 * Opens a reviewed URL outside the app: a new top-level browsing context without a way back to
 * this page (noopener, noreferrer). In Electron the window's open handler sends it to the system
 * browser; in browser mode it is a new tab.
 */
export function openExternally(review: UrlReview, open: (url: string, target: string, features: string) => unknown = (u, t, f) => window.open(u, t, f)): boolean {
  if (!review.openable) return false;
  open(review.href, '_blank', 'noopener,noreferrer');
  return true;
}
