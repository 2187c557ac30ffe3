/**
 * The one BrowserWindow factory. Every window Harbor opens is built here, so every security
 * setting lives in one place and a unit test can assert all of them (test/unit/window.test.ts).
 *
 * The renderer shows text that MCP servers wrote (tool descriptions, resources, model output):
 * treat it as hostile. It gets no Node, a sandboxed process, an isolated preload world, a strict
 * CSP, no way to navigate away from the app, no new windows and no permissions.
 */
import { pathToFileURL } from 'node:url';
import { BrowserWindow, type Session, type WebContents, type WebPreferences } from 'electron';
import { allowsNavigation, frameDepth, type FrameOf } from './shell/app-sandbox-protocol';

export { CONTENT_SECURITY_POLICY } from './csp';
import { CONTENT_SECURITY_POLICY } from './csp';

/** Longest URL handed to the OS opener: a mailto: body is no place for megabytes. */
const MAX_EXTERNAL_URL_LENGTH = 4096;

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    // The renderer runs in an OS sandbox with no Node; the preload runs in its own JS world.
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    // The spellchecker downloads dictionaries from Google: no network Harbor did not ask for.
    spellcheck: false,
  };
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * Whether a mailto: link asks the mail client to attach a file ("attach=", "attachment=", in any
 * case or encoding): several clients honour it, so a link in a server's text could mail away
 * ~/.ssh/id_rsa with one click on Send.
 */
export function mailtoAttachesFiles(url: URL): boolean {
  return [...url.searchParams.keys()].some((key) => key.trim().toLowerCase().startsWith('attach'));
}

/**
 * The URL to hand to the OS (browser, mail client) for a link the page asked to open, or
 * undefined when it must not leave the app. Only https: and mailto: (without attachments), parsed
 * and normalised: never file:, javascript:, custom schemes (which can launch other programs) or
 * plain http:. The renderer's link dialogs offer exactly these (url-safety.ts).
 */
export function toExternalUrl(url: string): string | undefined {
  if (url.length > MAX_EXTERNAL_URL_LENGTH) return undefined;
  const parsed = parseUrl(url);
  if (!parsed) return undefined;
  if (parsed.protocol === 'https:') {
    // Credentials in a link are a phishing trick (https://bank.com@evil.example), never needed.
    if (parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') return undefined;
    return parsed.href;
  }
  if (parsed.protocol === 'mailto:') return (parsed.pathname === '' && parsed.search === '') || mailtoAttachesFiles(parsed) ? undefined : parsed.href;
  return undefined;
}

export function isAllowedExternalUrl(url: string): boolean {
  return toExternalUrl(url) !== undefined;
}

/**
 * Whether `url` is the app's own page. For a file: app that is the one index.html (its hash
 * routes included, nothing else on disk); for the dev server it is the server's origin.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  const candidate = parseUrl(url);
  const app = parseUrl(appUrl);
  if (!candidate || !app) return false;
  if (app.protocol === 'file:') {
    return candidate.protocol === 'file:' && candidate.host === app.host && candidate.pathname === app.pathname;
  }
  if (app.protocol !== 'http:' && app.protocol !== 'https:') return false;
  return candidate.origin === app.origin;
}

export type RendererTarget = { kind: 'url'; url: string } | { kind: 'file'; path: string; url: string };

function isLoopbackHttp(url: string): boolean {
  const parsed = parseUrl(url);
  return (
    parsed !== undefined &&
    parsed.protocol === 'http:' &&
    ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)
  );
}

/**
 * What the window loads: electron-vite's dev server (it sets ELECTRON_RENDERER_URL) when running
 * unpackaged, else the built index.html. A packaged app ignores the variable, and only a loopback
 * http URL is accepted: an environment variable must not point the privileged window elsewhere.
 */
export function resolveRendererTarget(options: {
  isPackaged: boolean;
  devServerUrl: string | undefined;
  rendererFile: string;
}): RendererTarget {
  const { isPackaged, devServerUrl, rendererFile } = options;
  if (!isPackaged && devServerUrl && isLoopbackHttp(devServerUrl)) return { kind: 'url', url: devServerUrl };
  return { kind: 'file', path: rendererFile, url: pathToFileURL(rendererFile).href };
}

export interface MainWindowDeps {
  /** Absolute path of the built preload (out/preload/index.cjs). */
  readonly preloadPath: string;
  readonly renderer: RendererTarget;
  /** Opens a vetted https:/mailto: URL outside the app (shell.openExternal). */
  readonly openExternal: (url: string) => Promise<void>;
  /** Where load failures go; the window stays up so the user sees something. */
  readonly log?: (message: string, error?: unknown) => void;
}

/** Navigation and window-opening guards on one webContents. */
export function guardWebContents(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  appUrl: string,
  openExternal: MainWindowDeps['openExternal'],
  log: NonNullable<MainWindowDeps['log']>,
): void {
  const denyForeign = (event: { preventDefault(): void } & FrameOf, url: string) => {
    if (!allowsNavigation(url, frameDepth(event), (target) => isAppUrl(target, appUrl))) event.preventDefault();
  };
  contents.on('will-navigate', (event) => denyForeign(event, event.url));
  contents.on('will-frame-navigate', (event) => denyForeign(event, event.url));
  contents.on('will-redirect', (event) => denyForeign(event, event.url));
  // webviewTag is off; this also refuses one if a future preference change turned it on.
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const external = toExternalUrl(url);
    if (external !== undefined) {
      openExternal(external).catch((error: unknown) => log(`Could not open ${external}`, error));
    }
    return { action: 'deny' };
  });
}

/** Session-wide: the app's CSP as a header, and every permission (camera, geolocation, …) refused. */
export function guardSession(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'webRequest'>,
  appUrl: string,
): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppUrl(details.url, appUrl)) {
      callback({});
      return;
    }
    const responseHeaders: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') responseHeaders[name] = value;
    }
    responseHeaders['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    callback({ responseHeaders });
  });
}

export function createMainWindow(deps: MainWindowDeps): BrowserWindow {
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(`Harbor: ${message}`, error ?? ''));
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: 'Harbor',
    show: false,
    webPreferences: secureWebPreferences(deps.preloadPath),
  });
  guardSession(window.webContents.session, deps.renderer.url);
  guardWebContents(window.webContents, deps.renderer.url, deps.openExternal, log);
  window.once('ready-to-show', () => window.show());

  const loading = deps.renderer.kind === 'file' ? window.loadFile(deps.renderer.path) : window.loadURL(deps.renderer.url);
  loading.catch((error: unknown) => {
    log(`Could not load the app page ${deps.renderer.url}`, error);
    // ready-to-show may never come now; a visible window beats an invisible running app.
    if (!window.isDestroyed()) window.show();
  });
  return window;
}
