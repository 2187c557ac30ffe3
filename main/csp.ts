/**
 * The app's Content Security Policy, one definition for both front doors: the Electron window sets
 * it as a response header (main/window.ts) and browser mode sends it with every response
 * (main/web/security.ts). renderer/index.html carries the same policy in a <meta> — minus
 * frame-ancestors, which browsers honour only as a header, and with frame-src naming every place an
 * app sandbox can be served from; the header narrows frame-src to this door's sandbox (a unit test
 * keeps the two in step).
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  // 'self' admits ws://same-host: the browser-mode bridge.
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
] as const;

/** The desktop app serves MCP Apps' sandbox proxies on this scheme (main/shell/app-sandbox-protocol.ts). */
export const APP_SANDBOX_SCHEME = 'harbor-app';
/** Browser mode serves them on a second loopback port (main/web/app-sandbox-server.ts), chosen at launch, named localhost (or 127.0.0.1 for a page on localhost). */
const BROWSER_SANDBOX_SOURCES = 'http://localhost:* http://127.0.0.1:*';

function frameSrc(sources: readonly string[]): string {
  return `frame-src ${sources.length > 0 ? sources.join(' ') : "'none'"}`;
}

/** The header form, for a door whose app sandboxes are served from `frameSources` (none: no frames). */
export function contentSecurityPolicy(frameSources: readonly string[]): string {
  return [...DIRECTIVES, frameSrc(frameSources), "frame-ancestors 'none'"].join('; ');
}

/** The desktop app's header form. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy([`${APP_SANDBOX_SCHEME}:`]);

/** The <meta> form in renderer/index.html: both doors' sandboxes; each door's header narrows it to its own. */
export const META_CONTENT_SECURITY_POLICY = [...DIRECTIVES, frameSrc([`${APP_SANDBOX_SCHEME}:`, BROWSER_SANDBOX_SOURCES])].join('; ');
