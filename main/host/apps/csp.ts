/**
 * The Content Security Policy an app runs under, built from the domains its server declared and
 * nothing else. With nothing declared the app loads no remote script, style, image, font or
 * media, opens no connection, frames nothing and submits no form: it can only run the code and
 * show the content that came inside its own HTML, and talk to Harbor through its bridge.
 *
 * Every declared entry is checked before it reaches the policy: a server cannot smuggle a keyword
 * ('unsafe-hashes', 'self'), a wildcard that matches everything, a scheme-only source (https:) or a
 * second directive (a ';') in through a domain list. What is refused is reported, never silently
 * widened or dropped.
 */
import type { ResourceCsp } from './ui-meta';

export type CspKind = 'connect' | 'resource' | 'frame' | 'baseUri';

export interface CspGrant {
  readonly kind: CspKind;
  /** The source as it appears in the policy (normalized: scheme://host[:port][/path]). */
  readonly source: string;
}

export interface CspRefusal {
  readonly kind: CspKind;
  /** The entry as the server wrote it (cut to a readable length). */
  readonly entry: string;
  readonly reason: string;
}

export interface AppCsp {
  /** The policy, as one header value (without frame-ancestors, which the serving door adds). */
  readonly policy: string;
  readonly grants: readonly CspGrant[];
  readonly refused: readonly CspRefusal[];
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Secure schemes anyone may declare; their plain twins only for this machine (a developer's server). */
const SCHEMES: Readonly<Record<string, { secure: boolean }>> = {
  'https:': { secure: true },
  'wss:': { secure: true },
  'http:': { secure: false },
  'ws:': { secure: false },
};
const HOST_LABEL = /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_ENTRY_SHOWN = 120;
const MAX_ENTRIES_PER_LIST = 64;

function shown(entry: string): string {
  return entry.length > MAX_ENTRY_SHOWN ? `${entry.slice(0, MAX_ENTRY_SHOWN - 1)}…` : entry;
}

/**
 * One declared entry as a CSP source, or the reason it cannot be one. Accepted: an origin with an
 * optional `*.` subdomain wildcard, port and path (`https://*.example.com`, `wss://rt.example.com:8443`,
 * `https://cdn.example.com/lib/`); a bare host means https. Plain http/ws only for loopback.
 */
export function toCspSource(entry: string): { source: string } | { reason: string } {
  const text = entry.trim();
  if (text === '') return { reason: 'empty entry' };
  if (/[\s;,'"]/.test(text)) return { reason: 'contains a space, quote, comma or semicolon (a CSP keyword or a second directive)' };
  if (/^[a-z][a-z0-9+.-]*:$/i.test(text)) return { reason: 'a whole scheme would allow every site; name the domain' };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  // URL() rejects "*." hosts: parse with a placeholder label, then put the wildcard back.
  const wildcard = /^[a-z][a-z0-9+.-]*:\/\/\*\./i.test(withScheme);
  let url: URL;
  try {
    url = new URL(wildcard ? withScheme.replace('://*.', '://wildcard-label.') : withScheme);
  } catch {
    return { reason: 'not a URL or domain' };
  }
  const scheme = SCHEMES[url.protocol];
  if (!scheme) return { reason: `scheme ${url.protocol} is not allowed (https: or wss:)` };
  if (url.username || url.password) return { reason: 'credentials in the address' };
  if (url.search || url.hash) return { reason: 'a query or fragment is not part of a source' };
  const host = wildcard ? url.hostname.replace(/^wildcard-label\./, '*.') : url.hostname;
  if (host === '*' || host === '' || (!HOST_LABEL.test(host) && !LOOPBACK_HOSTS.has(host) && !/^\d{1,3}(\.\d{1,3}){3}$/.test(host))) {
    return { reason: 'not a domain (a bare * would allow every site)' };
  }
  if (!scheme.secure && !LOOPBACK_HOSTS.has(host)) return { reason: `plain ${url.protocol.slice(0, -1)} is allowed only for this machine (localhost); use https or wss` };
  const port = url.port ? `:${url.port}` : '';
  const path = url.pathname === '/' ? '' : url.pathname;
  return { source: `${url.protocol}//${host}${port}${path}` };
}

function checkList(kind: CspKind, entries: readonly string[] | undefined, grants: CspGrant[], refused: CspRefusal[]): string[] {
  const sources: string[] = [];
  for (const [index, entry] of (entries ?? []).entries()) {
    if (index >= MAX_ENTRIES_PER_LIST) {
      refused.push({ kind, entry: `${entries!.length - MAX_ENTRIES_PER_LIST} more`, reason: `at most ${MAX_ENTRIES_PER_LIST} entries per list` });
      break;
    }
    const checked = toCspSource(entry);
    if ('reason' in checked) {
      refused.push({ kind, entry: shown(entry), reason: checked.reason });
    } else if (!sources.includes(checked.source)) {
      sources.push(checked.source);
      grants.push({ kind, source: checked.source });
    }
  }
  return sources;
}

/** The app's policy from its declared domains (none declared: none allowed). */
export function buildAppCsp(csp: ResourceCsp | undefined): AppCsp {
  const grants: CspGrant[] = [];
  const refused: CspRefusal[] = [];
  const connect = checkList('connect', csp?.connectDomains, grants, refused);
  const resource = checkList('resource', csp?.resourceDomains, grants, refused);
  const frame = checkList('frame', csp?.frameDomains, grants, refused);
  const baseUri = checkList('baseUri', csp?.baseUriDomains, grants, refused);
  const list = (fixed: readonly string[], declared: readonly string[]) => {
    const all = [...fixed, ...declared];
    return all.length > 0 ? all.join(' ') : "'none'";
  };
  const directives = [
    "default-src 'none'",
    // Inline code is how an app arrives (one HTML document); eval and blob: workers give it nothing
    // its inline scripts do not already have, and some libraries need them.
    `script-src ${list(["'unsafe-inline'", "'unsafe-eval'", "'wasm-unsafe-eval'", 'blob:'], resource)}`,
    `style-src ${list(["'unsafe-inline'"], resource)}`,
    `img-src ${list(['data:', 'blob:'], resource)}`,
    `font-src ${list(['data:'], resource)}`,
    `media-src ${list(['data:', 'blob:'], resource)}`,
    `worker-src ${list(['blob:'], resource)}`,
    `connect-src ${list([], connect)}`,
    `frame-src ${list([], frame)}`,
    `base-uri ${list([], baseUri)}`,
    "form-action 'none'",
    "object-src 'none'",
    "manifest-src 'none'",
  ];
  return { policy: directives.join('; '), grants, refused };
}
