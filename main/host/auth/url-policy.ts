import { HarborError } from '../errors';

/** Hosts that name this machine's loopback interface. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Why a URL may not be opened, or undefined when it may. */
export function browserUrlProblem(raw: string | URL): string | undefined {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    return 'it is not a valid URL';
  }
  if (url.protocol === 'https:') return url.username || url.password ? 'it carries a user name or password' : undefined;
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) return 'it is plain http to another machine (only https, or http to this machine, is allowed)';
    return url.username || url.password ? 'it carries a user name or password' : undefined;
  }
  return `its scheme "${url.protocol}" is not https`;
}

/**
 * The one gate in front of every URL Harbor hands to a browser during sign-in. A malicious server
 * controls the authorization server metadata, so its `authorization_endpoint` may be
 * `javascript:`, `file:`, `data:`, `vbscript:` or a custom scheme that launches a program: only
 * `https:` (or `http:` to this machine, for local development) ever reaches the opener.
 */
export function assertBrowserUrl(raw: string | URL, server: string): URL {
  const problem = browserUrlProblem(raw);
  if (problem) {
    throw new HarborError(
      'AUTH_FAILED',
      `"${server}" asked Harbor to open a sign-in page it refuses to open: ${problem}. The server or its authorization server is misconfigured (or hostile); ask its operator.`,
    );
  }
  return new URL(String(raw));
}
