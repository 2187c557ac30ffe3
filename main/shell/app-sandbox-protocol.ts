/**
 * The desktop app's origin for MCP Apps: their sandbox proxies are served on the dedicated
 * `harbor-app:` scheme (harbor-app://sandbox/app/<instance>), registered as a standard, secure
 * scheme so the proxy has an origin of its own — never the page's file:// origin, and another
 * site, so Chromium's site isolation runs it in another process. Each page is served with its
 * app's CSP, decided by the Host when the app was opened; only the Harbor page may frame it. A
 * proxy frames its app's document at harbor-app://sandbox/doc/<ticket>, a single-use address
 * issued with the proxy page, served with the app's CSP.
 * (An iframe cannot have its own session partition in Electron: the scheme is the boundary.)
 *
 * Typed against electron.d.ts; the request handling itself is plain and tested under Node.
 */
import type { Protocol, Session } from 'electron';
import { randomBytes } from 'node:crypto';
import { AppDocumentTickets } from '../app-sandbox/document-tickets';
import { appDocumentHeaders, proxyPageHeaders, proxyPageHtml, type AppSandboxPolicy } from '../app-sandbox/proxy-page';
import { APP_SANDBOX_SCHEME } from '../csp';
import { toDisposable, type Disposable } from '../host/lifecycle';

export const APP_SANDBOX_ORIGIN = `${APP_SANDBOX_SCHEME}://sandbox`;
const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Must run before the app is ready: a standard scheme has origins; a secure one is a secure context. */
export function registerAppSandboxScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SANDBOX_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, bypassCSP: false, stream: false } },
  ]);
}

export function appSandboxUrl(instanceId: string): string {
  return `${APP_SANDBOX_ORIGIN}/app/${encodeURIComponent(instanceId)}`;
}

/** A URL on the sandbox origin whose path starts with `/<kind>/` (app: a proxy page; doc: an app's document). */
function isSandboxUrl(url: string, kind: 'app' | 'doc'): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SANDBOX_SCHEME}:` && parsed.host === 'sandbox' && parsed.pathname.startsWith(`/${kind}/`);
  } catch {
    return false; // not a URL: not the sandbox's
  }
}

export function isAppSandboxUrl(url: string): boolean {
  return isSandboxUrl(url, 'app');
}

function text(status: number, body: string): Response {
  return new Response(`${body}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' } });
}

/**
 * The answer to one request on the scheme: an open app's proxy page for the Harbor page
 * (`pageOrigin`: 'file://' for the built app, the dev server's origin under `npm run dev`),
 * refused otherwise.
 */
export function appSandboxResponse(
  request: Pick<Request, 'url' | 'method' | 'headers'>,
  pageOrigin: string,
  policyFor: (instanceId: string) => AppSandboxPolicy | undefined,
  tickets: AppDocumentTickets,
): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method not allowed.');
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return text(404, 'Not found.');
  }
  const [, kind, id, ...rest] = url.pathname.split('/');
  if (url.host !== 'sandbox' || (kind !== 'app' && kind !== 'doc') || !id || !ID.test(id) || rest.length > 0) return text(404, 'Not found.');
  const dest = request.headers.get('sec-fetch-dest');
  if (dest !== null && dest !== 'iframe') return text(403, 'Forbidden: an app sandbox opens only inside Harbor.');
  if (kind === 'doc') {
    // Framed by its proxy on this origin; the ticket was given to that proxy alone, and opens once.
    const holder = url.search === '' ? tickets.take(id) : undefined;
    const policy = holder === undefined ? undefined : policyFor(holder.instanceId);
    if (!holder || !policy) return text(404, 'Not found.');
    return new Response(request.method === 'HEAD' ? null : policy.html, { status: 200, headers: appDocumentHeaders(policy.csp, APP_SANDBOX_ORIGIN, holder.parentOrigin) });
  }
  const instanceId = id;
  if (url.searchParams.get('parent') !== pageOrigin) return text(403, 'Forbidden: only the Harbor page may frame an app sandbox.');
  const policy = policyFor(instanceId);
  if (!policy) return text(404, 'This app is not open any more.');
  const requested = url.searchParams.get('scheme');
  const colorScheme = requested === 'light' || requested === 'dark' ? requested : 'light dark';
  const documentUrl = `${APP_SANDBOX_ORIGIN}/doc/${tickets.issue({ instanceId, parentOrigin: pageOrigin })}`;
  const nonce = randomBytes(18).toString('base64url');
  return new Response(request.method === 'HEAD' ? null : proxyPageHtml({ parentOrigin: pageOrigin, allow: policy.allow, colorScheme, documentUrl }, nonce), {
    status: 200,
    headers: proxyPageHeaders(pageOrigin, documentUrl, nonce),
  });
}

/** Serves the scheme on the window's session until disposed. */
export function serveAppSandbox(session: Pick<Session, 'protocol'>, pageOrigin: string, policyFor: (instanceId: string) => AppSandboxPolicy | undefined): Disposable {
  const tickets = new AppDocumentTickets();
  session.protocol.handle(APP_SANDBOX_SCHEME, (request) => appSandboxResponse(request, pageOrigin, policyFor, tickets));
  return toDisposable(() => session.protocol.unhandle(APP_SANDBOX_SCHEME));
}

/** A frame as far as its ancestry goes (Electron's WebFrameMain has this shape). */
export interface FrameLink {
  readonly parent: FrameLink | null;
}
export type FrameOf = { frame?: FrameLink | null };

/** How deep a navigating frame sits: 0 the page itself (also when Electron does not say), 1 an app's sandbox proxy, 2 the app, 3+ the app's own frames. */
export function frameDepth(event: FrameOf): number {
  let depth = 0;
  try {
    for (let frame = event.frame?.parent ?? null; frame; frame = frame.parent) depth += 1;
  } catch {
    return 0; // a frame disposed mid-walk: judged as strictly as the page
  }
  return depth;
}

/**
 * Where a frame at `depth` may navigate: the page only to itself; an MCP App's sandbox proxy only
 * to its harbor-app: page (or blank, when the app is put away); the app only to a document on the
 * sandbox origin (its own single-use address; the proxy's CSP narrows it to exactly that one, which
 * holds in browser mode too) — an app that tries to leave for another page is stopped; the app's
 * own frames wherever its CSP frame-src allows.
 */
export function allowsNavigation(url: string, depth: number, isPage: (url: string) => boolean): boolean {
  if (depth === 0) return isPage(url);
  if (depth === 1) return isAppSandboxUrl(url) || url === 'about:blank';
  if (depth === 2) return isSandboxUrl(url, 'doc');
  return true;
}
