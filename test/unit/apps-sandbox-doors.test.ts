/**
 * The sandbox proxy page both doors serve, and the desktop's side of it: the harbor-app: scheme's
 * answers and the window's navigation rule for the frames an app lives in. (The page's behaviour in
 * a browser is in test/e2e/apps.spec.ts; browser mode's server in test/integration.)
 */
import { describe, expect, it } from 'vitest';
import { proxyPageHeaders, proxyPageHtml } from '../../main/app-sandbox/proxy-page';
import { allowsNavigation, appSandboxResponse, appSandboxUrl, frameDepth, isAppSandboxUrl } from '../../main/shell/app-sandbox-protocol';

const policyFor = (id: string) => (id === 'open' ? { csp: "default-src 'none'", allow: '' } : undefined);
const get = (url: string, headers: Record<string, string> = {}, method = 'GET') => appSandboxResponse(new Request(url, { method, headers }), 'file://', policyFor);

describe('the proxy page', () => {
  it('carries its configuration as data a value cannot break out of', () => {
    const html = proxyPageHtml({ parentOrigin: 'http://127.0.0.1:1</script><script>alert(1)</script>', allow: '', colorScheme: 'light' });
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toContain('</script><script>alert');
    expect(html).toContain('\\u003c/script\\u003e');
  });

  it('is served with the app’s CSP plus frame-ancestors for the page (file: for the desktop)', () => {
    expect(proxyPageHeaders("default-src 'none'", 'http://127.0.0.1:5')['Content-Security-Policy']).toBe("default-src 'none'; frame-ancestors http://127.0.0.1:5");
    expect(proxyPageHeaders("default-src 'none'", 'file://')['Content-Security-Policy']).toBe("default-src 'none'; frame-ancestors file:");
  });
});

describe('the desktop’s harbor-app: scheme', () => {
  it('serves an open app’s proxy page to the Harbor page’s frame', async () => {
    expect(appSandboxUrl('open')).toBe('harbor-app://sandbox/app/open');
    const response = get(`${appSandboxUrl('open')}?parent=file%3A%2F%2F&scheme=dark`, { 'sec-fetch-dest': 'iframe' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors file:");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.text()).toContain('"colorScheme":"dark"');
  });

  it('refuses other pages, other frames, other paths and closed apps', () => {
    const parent = '?parent=file%3A%2F%2F';
    expect(get(`harbor-app://sandbox/app/open?parent=${encodeURIComponent('https://evil.example')}`).status).toBe(403);
    expect(get(`harbor-app://sandbox/app/open${parent}`, { 'sec-fetch-dest': 'document' }).status).toBe(403);
    expect(get(`harbor-app://sandbox/app/closed${parent}`).status).toBe(404);
    expect(get(`harbor-app://elsewhere/app/open${parent}`).status).toBe(404);
    expect(get(`harbor-app://sandbox/app/open/more${parent}`).status).toBe(404);
    expect(get(`harbor-app://sandbox/app/open${parent}`, {}, 'POST').status).toBe(405);
  });

  it('lets the window’s frames go only where an app’s frames belong', () => {
    const app = 'file:///app/out/renderer/index.html';
    const isPage = (url: string) => url.startsWith(app);
    expect(isAppSandboxUrl('harbor-app://sandbox/app/x')).toBe(true);
    expect(isAppSandboxUrl('harbor-app://other/app/x')).toBe(false);
    // The page: only itself.
    expect(allowsNavigation(`${app}#/chat`, 0, isPage)).toBe(true);
    expect(allowsNavigation('harbor-app://sandbox/app/x', 0, isPage)).toBe(false);
    // The proxy: only its page, or blank when the app is put away.
    expect(allowsNavigation('harbor-app://sandbox/app/x', 1, isPage)).toBe(true);
    expect(allowsNavigation('about:blank', 1, isPage)).toBe(true);
    expect(allowsNavigation('https://evil.example/', 1, isPage)).toBe(false);
    expect(allowsNavigation(app, 1, isPage)).toBe(false);
    // The app: only its own document; leaving it for another page is stopped.
    expect(allowsNavigation('about:srcdoc', 2, isPage)).toBe(true);
    expect(allowsNavigation('https://evil.example/?stolen=1', 2, isPage)).toBe(false);
    // The app's own frames: its CSP decides.
    expect(allowsNavigation('https://www.youtube.com/embed/x', 3, isPage)).toBe(true);
  });

  it('measures a frame’s depth by its parents, and treats an unknown frame as the page', () => {
    const page = { parent: null };
    const proxy = { parent: page };
    const appFrame = { parent: proxy };
    expect(frameDepth({})).toBe(0);
    expect(frameDepth({ frame: page })).toBe(0);
    expect(frameDepth({ frame: proxy })).toBe(1);
    expect(frameDepth({ frame: appFrame })).toBe(2);
    const disposed = {
      get parent(): never {
        throw new Error('Render frame was disposed');
      },
    };
    expect(frameDepth({ frame: disposed as never })).toBe(0);
  });
});
