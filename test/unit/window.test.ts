import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { META_CONTENT_SECURITY_POLICY } from '../../main/csp';

// The Electron binary cannot run here: stand in a BrowserWindow that records what the factory
// asks of it, so the wiring (not Electron) is what these tests check.
const fake = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void;
  class FakeEmitter {
    readonly listeners = new Map<string, Listener[]>();
    on(name: string, listener: Listener) {
      this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
      return this;
    }
    once(name: string, listener: Listener) {
      return this.on(name, listener);
    }
    emit(name: string, ...args: unknown[]) {
      for (const l of this.listeners.get(name) ?? []) l(...args);
    }
  }
  function makeSession() {
    const session = {
      permissionRequestHandler: undefined as undefined | ((...a: unknown[]) => void),
      permissionCheckHandler: undefined as undefined | ((...a: unknown[]) => boolean),
      headersListener: undefined as undefined | ((details: unknown, cb: (r: unknown) => void) => void),
      setPermissionRequestHandler(h: (...a: unknown[]) => void) {
        session.permissionRequestHandler = h;
      },
      setPermissionCheckHandler(h: (...a: unknown[]) => boolean) {
        session.permissionCheckHandler = h;
      },
      webRequest: {
        onHeadersReceived(h: (details: unknown, cb: (r: unknown) => void) => void) {
          session.headersListener = h;
        },
      },
    };
    return session;
  }
  class FakeWebContents extends FakeEmitter {
    windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
    readonly session = makeSession();
    setWindowOpenHandler(h: (details: { url: string }) => { action: string }) {
      this.windowOpenHandler = h;
    }
  }
  const created: FakeBrowserWindow[] = [];
  class FakeBrowserWindow extends FakeEmitter {
    readonly webContents = new FakeWebContents();
    readonly loaded: { file?: string; url?: string } = {};
    shown = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      created.push(this);
    }
    loadFile(path: string) {
      this.loaded.file = path;
      return Promise.resolve();
    }
    loadURL(url: string) {
      this.loaded.url = url;
      return Promise.resolve();
    }
    show() {
      this.shown = true;
    }
    isDestroyed() {
      return false;
    }
  }
  return { created, FakeBrowserWindow };
});

vi.mock('electron', () => ({ BrowserWindow: fake.FakeBrowserWindow }));

const {
  CONTENT_SECURITY_POLICY,
  createMainWindow,
  isAllowedExternalUrl,
  isAppUrl,
  resolveRendererTarget,
  secureWebPreferences,
  toExternalUrl,
} = await import('../../main/window');

const repoRoot = join(import.meta.dirname, '..', '..');
const rendererFile = join(repoRoot, 'out', 'renderer', 'index.html');
const appUrl = pathToFileURL(rendererFile).href;

describe('secureWebPreferences', () => {
  it('sets every security flag and the preload path', () => {
    expect(secureWebPreferences('/app/out/preload/index.cjs')).toStrictEqual({
      preload: '/app/out/preload/index.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    });
  });
});

describe('CONTENT_SECURITY_POLICY', () => {
  it('is strict: self only, no eval, no inline script, no plugins, no framing', () => {
    const directives = CONTENT_SECURITY_POLICY.split(';').map((d) => d.trim());
    expect(directives).toContain("default-src 'self'");
    expect(directives).toContain("script-src 'self'");
    expect(directives).toContain("object-src 'none'");
    expect(directives).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/\*/);
  });

  it('is the same policy as the <meta> in renderer/index.html', () => {
    const html = readFileSync(join(repoRoot, 'renderer', 'index.html'), 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html);
    expect(meta?.[1]).toBe(META_CONTENT_SECURITY_POLICY);
    // frame-ancestors is honoured only as a header: the header form adds exactly that, and narrows
    // frame-src from every door's app sandbox to the desktop's own.
    const narrowed = META_CONTENT_SECURITY_POLICY.replace(/frame-src [^;]*$/, 'frame-src harbor-app:');
    expect(CONTENT_SECURITY_POLICY).toBe(`${narrowed}; frame-ancestors 'none'`);
  });
});

describe('external URL allowlist', () => {
  it.each([
    'https://modelcontextprotocol.io/docs',
    'https://example.com:8443/a?b=c#d',
    'mailto:someone@example.com',
    'mailto:someone@example.com?subject=Hi',
  ])('allows %s', (url) => {
    expect(isAllowedExternalUrl(url)).toBe(true);
  });

  it.each([
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vscode://file/etc/passwd',
    'ms-msdt:/id PCWDiagnostic',
    'smb://attacker/share',
    'https://user:pass@example.com/',
    'https://bank.example@evil.example/',
    'mailto:',
    'mailto:a@example.com?attach=/etc/passwd',
    'mailto:a@example.com?subject=Hi&ATTACHMENT=~/.ssh/id_rsa',
    'mailto:a@example.com?%61ttach=%2Fetc%2Fpasswd',
    'mailto:?to=a@example.com&Attach=file:///etc/passwd',
    'not a url',
    '',
    `https://example.com/${'a'.repeat(5000)}`,
  ])('denies %s', (url) => {
    expect(isAllowedExternalUrl(url)).toBe(false);
  });

  it('hands the opener a parsed, normalised URL', () => {
    expect(toExternalUrl('HTTPS://Example.COM/a b')).toBe('https://example.com/a%20b');
  });
});

describe('isAppUrl', () => {
  it('accepts the app page itself with any hash route', () => {
    expect(isAppUrl(appUrl, appUrl)).toBe(true);
    expect(isAppUrl(`${appUrl}#/servers`, appUrl)).toBe(true);
  });

  it('refuses other files, other origins and other schemes', () => {
    expect(isAppUrl(pathToFileURL(join(repoRoot, 'out', 'renderer', 'other.html')).href, appUrl)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', appUrl)).toBe(false);
    expect(isAppUrl('https://evil.example/', appUrl)).toBe(false);
    expect(isAppUrl('about:blank', appUrl)).toBe(false);
    expect(isAppUrl('garbage', appUrl)).toBe(false);
  });

  it('for the dev server, accepts its origin only', () => {
    const dev = 'http://localhost:5173/';
    expect(isAppUrl('http://localhost:5173/src/main.tsx', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('http://127.0.0.1:5173/', dev)).toBe(false);
    expect(isAppUrl('https://localhost:5173/', dev)).toBe(false);
  });
});

describe('resolveRendererTarget', () => {
  it('uses the dev server when unpackaged and the URL is loopback http', () => {
    expect(resolveRendererTarget({ isPackaged: false, devServerUrl: 'http://localhost:5173/', rendererFile })).toEqual({
      kind: 'url',
      url: 'http://localhost:5173/',
    });
  });

  it('ignores ELECTRON_RENDERER_URL in a packaged app and for non-loopback URLs', () => {
    const file = { kind: 'file', path: rendererFile, url: appUrl };
    expect(resolveRendererTarget({ isPackaged: true, devServerUrl: 'http://localhost:5173/', rendererFile })).toEqual(file);
    expect(resolveRendererTarget({ isPackaged: false, devServerUrl: 'https://evil.example/', rendererFile })).toEqual(file);
    expect(resolveRendererTarget({ isPackaged: false, devServerUrl: 'http://192.168.1.5:5173/', rendererFile })).toEqual(file);
    expect(resolveRendererTarget({ isPackaged: false, devServerUrl: undefined, rendererFile })).toEqual(file);
  });
});

describe('createMainWindow', () => {
  const opened: string[] = [];
  let window: InstanceType<typeof fake.FakeBrowserWindow>;

  beforeEach(() => {
    opened.length = 0;
    createMainWindow({
      preloadPath: '/app/out/preload/index.cjs',
      renderer: resolveRendererTarget({ isPackaged: true, devServerUrl: undefined, rendererFile }),
      openExternal: async (url) => {
        opened.push(url);
      },
      log: () => undefined,
    });
    window = fake.created[fake.created.length - 1]!;
  });

  const navigate = (event: string, url: string) => {
    const e = { url, defaultPrevented: false, preventDefault() {
      this.defaultPrevented = true;
    } };
    window.webContents.emit(event, e, url);
    return e.defaultPrevented;
  };

  it('builds the window with the secure preferences and loads the built page from disk', () => {
    expect(window.options.webPreferences).toStrictEqual(secureWebPreferences('/app/out/preload/index.cjs'));
    expect(window.options.show).toBe(false);
    expect(window.loaded).toEqual({ file: rendererFile });
    window.emit('ready-to-show');
    expect(window.shown).toBe(true);
  });

  it('denies navigation and redirects to anything but the app page', () => {
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      expect(navigate(event, 'https://evil.example/'), event).toBe(true);
      expect(navigate(event, 'file:///etc/passwd'), event).toBe(true);
      expect(navigate(event, `${appUrl}#/chat`), event).toBe(false);
    }
  });

  it('refuses <webview> attachment', () => {
    expect(navigate('will-attach-webview', 'https://evil.example/')).toBe(true);
  });

  it('never opens a window; opens only https/mailto outside the app', () => {
    const handler = window.webContents.windowOpenHandler!;
    for (const url of ['https://example.com/x', 'mailto:a@example.com', 'http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'custom-app://run']) {
      expect(handler({ url })).toEqual({ action: 'deny' });
    }
    expect(opened).toEqual(['https://example.com/x', 'mailto:a@example.com']);
  });

  it('refuses every permission request and check', () => {
    const session = window.webContents.session;
    const answers: boolean[] = [];
    session.permissionRequestHandler!(window.webContents, 'media', (granted: boolean) => answers.push(granted), {});
    session.permissionRequestHandler!(window.webContents, 'notifications', (granted: boolean) => answers.push(granted), {});
    expect(answers).toEqual([false, false]);
    expect(session.permissionCheckHandler!(window.webContents, 'clipboard-read', 'file://', {})).toBe(false);
  });

  it('sets the CSP header on the app page, replacing any other, and leaves foreign responses alone', () => {
    const listener = window.webContents.session.headersListener!;
    let response: unknown;
    listener(
      { url: appUrl, responseHeaders: { 'content-security-policy': ["default-src *"], 'X-Other': ['1'] } },
      (r) => (response = r),
    );
    expect(response).toEqual({
      responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
    listener({ url: 'https://example.com/', responseHeaders: {} }, (r) => (response = r));
    expect(response).toEqual({});
  });

  it('loads the dev server URL when given one', () => {
    createMainWindow({
      preloadPath: '/p.cjs',
      renderer: { kind: 'url', url: 'http://localhost:5173/' },
      openExternal: async () => undefined,
    });
    expect(fake.created[fake.created.length - 1]!.loaded).toEqual({ url: 'http://localhost:5173/' });
  });
});
