/**
 * The sandbox proxy of one MCP App: the page each door serves on the apps' own origin (browser
 * mode: a second loopback port; desktop: the harbor-app: protocol), framed by the Harbor page.
 * It loads the app's document into an inner frame and relays the bridge's messages, nothing more.
 *
 * The inner frame is sandboxed WITHOUT allow-same-origin: the app runs in an opaque origin of its
 * own, so it cannot touch this proxy, the Harbor page, another app, or any storage; without
 * allow-popups, allow-top-navigation and allow-modals it cannot open windows, navigate Harbor away
 * or block it with dialogs. The app's document comes from its own single-use address
 * (document-tickets.ts) with the app's CSP, so it reaches only the domains its server declared;
 * this page's own CSP lets its frame load that address and nothing else, so an app that navigates
 * its frame anywhere — a site its server declared for frames included — is refused by the browser,
 * and the frame is removed at its next load with the page told why.
 *
 * It is also the first line against an app that floods its bridge (preload/contract/app-limits.ts):
 * past the messages or bytes it may send the app is removed and the page told why; a request while
 * the same one still waits is answered with an error here, and never reaches the page.
 */
import { APP_LIMITS, APP_NAVIGATED_METHOD, APP_STOPPED_METHOD, createAppLimiter, type AppLimits } from '../../preload/contract';

/** What the doors serve of one open app, decided by the Host when it was opened. */
export interface AppSandboxPolicy {
  readonly csp: string;
  readonly allow: string;
  /** The app's document, as the Host read it. */
  readonly html: string;
}

export interface ProxyPageConfig {
  /** The exact origin of the Harbor page allowed to talk to this proxy ('file://' for the desktop app). */
  readonly parentOrigin: string;
  /** The inner frame's `allow` attribute, decided by the Host. */
  readonly allow: string;
  /** The page's color scheme when the frame was made (follows host-context-changed afterwards). */
  readonly colorScheme: 'light' | 'dark' | 'light dark';
  /** The app's document: its single-use address on this origin, served with the app's CSP. */
  readonly documentUrl: string;
}

/** What the app frame may do: run scripts and handle its own forms (their submission is blocked by CSP). */
export const INNER_SANDBOX = 'allow-scripts allow-forms';

/**
 * Runs inside the proxy page (serialized with Function.prototype.toString, so it must stay
 * self-contained: no imports, no outer variables).
 */
function sandboxProxy(
  config: ProxyPageConfig & { innerSandbox: string; navigatedMethod: string; stoppedMethod: string; limits: AppLimits },
  createLimiter: typeof createAppLimiter,
): void {
  if (window.parent === window) return; // opened on its own: nothing to relay
  // Nothing the app can reach should name the sandbox server's token or this app's instance.
  history.replaceState(null, '', '/');
  // A file:// page has an opaque origin: messages to it can only be addressed with '*' (the
  // parent is fixed for this frame's life, and the desktop window never navigates away).
  const target = config.parentOrigin === 'file://' ? '*' : config.parentOrigin;
  const fromParent = (event: MessageEvent) =>
    event.source === window.parent && (event.origin === config.parentOrigin || (config.parentOrigin === 'file://' && event.origin === 'file://'));
  let inner: HTMLIFrameElement | undefined;
  let gone = false;
  const limiter = createLimiter(config.limits, () => performance.now());
  // Over its limits the app goes at once (its frame and everything it still had queued with it).
  const stop = (limit: string) => {
    if (gone) return;
    gone = true;
    inner?.remove();
    window.parent.postMessage({ jsonrpc: '2.0', method: config.stoppedMethod, params: { limit } }, target);
  };
  document.documentElement.style.colorScheme = config.colorScheme;

  // The document is the Host's copy, served at config.documentUrl (single-use, issued with this
  // page) with the app's CSP: framed at once, not after the page's go-ahead (which carries the
  // app's HTML, as the bridge's protocol has it, and adds only a round trip through the page's
  // main thread before the app's first paint).
  const load = () => {
    if (inner || gone) return;
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', config.innerSandbox);
    if (config.allow) frame.setAttribute('allow', config.allow);
    frame.setAttribute('title', 'App');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    // The first load is the app's document; any later one means it navigated itself elsewhere (the
    // browser refused that navigation: this page's frame-src is the document's address alone).
    let loads = 0;
    frame.addEventListener('load', () => {
      loads += 1;
      if (loads < 2 || gone) return;
      gone = true;
      frame.remove();
      window.parent.postMessage({ jsonrpc: '2.0', method: config.navigatedMethod, params: {} }, target);
    });
    frame.src = config.documentUrl;
    inner = frame;
    document.body.append(frame);
  };

  window.addEventListener('message', (event: MessageEvent) => {
    const data: unknown = event.data;
    const method = typeof data === 'object' && data !== null ? (data as { method?: unknown }).method : undefined;
    const reserved = typeof method === 'string' && (method.startsWith('ui/notifications/sandbox-') || method.startsWith('harbor/'));
    if (fromParent(event)) {
      if (method === 'ui/notifications/sandbox-resource-ready') {
        load();
        return;
      }
      if (method === 'ui/notifications/host-context-changed') {
        const theme = (data as { params?: { theme?: unknown } }).params?.theme;
        if (theme === 'light' || theme === 'dark') document.documentElement.style.colorScheme = theme;
      }
      if (reserved || gone || !inner?.contentWindow) return;
      limiter.outbound(data);
      // The app's origin is opaque: '*' is the only way to address it; the frame is ours.
      inner.contentWindow.postMessage(data, '*');
      return;
    }
    if (inner && event.source !== null && event.source === inner.contentWindow && event.origin === 'null') {
      // The app may not speak for the proxy (sandbox-* and harbor/ messages) or speak after it left.
      if (gone) return;
      const verdict = limiter.inbound(data);
      if (verdict.kind === 'stop') stop(verdict.limit);
      else if (verdict.kind === 'refuse') inner.contentWindow?.postMessage(verdict.reply, '*');
      else if (!reserved) window.parent.postMessage(data, target);
    }
  });
  load();
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, target);
}

/** JSON inside a <script>: `<`, `>` and `&` escaped so no value can close the script element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The page; `nonce` marks its own script and style, the only ones its CSP runs. */
export function proxyPageHtml(config: ProxyPageConfig, nonce: string): string {
  const runtime = { ...config, innerSandbox: INNER_SANDBOX, navigatedMethod: APP_NAVIGATED_METHOD, stoppedMethod: APP_STOPPED_METHOD, limits: APP_LIMITS };
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"><title>Harbor app sandbox</title>',
    `<style nonce="${nonce}">html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%;background:transparent}</style>`,
    '</head><body>',
    `<script nonce="${nonce}">(${sandboxProxy.toString()})(${scriptJson(runtime)}, ${createAppLimiter.toString()});</script>`,
    '</body></html>',
  ].join('');
}

const COMMON_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), display-capture=(), usb=(), serial=(), hid=(), payment=(), publickey-credentials-get=()',
  'Cross-Origin-Resource-Policy': 'same-site',
} as const;

/**
 * The response headers of a proxy page: a CSP of its own that runs only its own script and style
 * (by nonce), frames only the app's document (its exact address), and lets only the Harbor page
 * frame it; no referrer (the app cannot learn this page's address, which names its instance), no
 * caching, and device features off for the whole frame tree.
 */
/** The Harbor page as a CSP source (a file:// page's origin is opaque; its scheme names it). */
function pageSource(parentOrigin: string): string {
  return parentOrigin === 'file://' ? 'file:' : parentOrigin;
}

export function proxyPageHeaders(parentOrigin: string, documentUrl: string, nonce: string): Record<string, string> {
  const ancestor = pageSource(parentOrigin);
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `frame-src ${documentUrl}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestor}`,
  ].join('; ');
  return { ...COMMON_HEADERS, 'Content-Security-Policy': csp };
}

/**
 * The response headers of an app's document: its CSP, framed only by its proxy's origin inside the
 * Harbor page (frame-ancestors is checked against every ancestor, the page included).
 */
export function appDocumentHeaders(csp: string, sandboxOrigin: string, parentOrigin: string): Record<string, string> {
  return { ...COMMON_HEADERS, 'Content-Security-Policy': `${csp}; frame-ancestors ${sandboxOrigin} ${pageSource(parentOrigin)}` };
}
