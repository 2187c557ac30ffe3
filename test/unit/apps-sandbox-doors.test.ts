/**
 * The sandbox proxy page both doors serve, and the desktop's side of it: the harbor-app: scheme's
 * answers and the window's navigation rule for the frames an app lives in. (The page's behaviour in
 * a browser is in test/e2e/apps.spec.ts; browser mode's server in test/integration.)
 */
import { describe, expect, it } from 'vitest';
import { AppDocumentTickets } from '../../main/app-sandbox/document-tickets';
import { appDocumentHeaders, proxyPageHeaders, proxyPageHtml } from '../../main/app-sandbox/proxy-page';
import { allowsNavigation, appSandboxResponse, appSandboxUrl, frameDepth, isAppSandboxUrl } from '../../main/shell/app-sandbox-protocol';

const APP_HTML = '<!doctype html><p>the app</p>';
const policyFor = (id: string) => (id === 'open' ? { csp: "default-src 'none'; frame-src https://embed.example", allow: '', html: APP_HTML } : undefined);
let tickets = new AppDocumentTickets();
const get = (url: string, headers: Record<string, string> = {}, method = 'GET') => appSandboxResponse(new Request(url, { method, headers }), 'file://', policyFor, tickets);
const PROXY = 'harbor-app://sandbox/app/open?parent=file%3A%2F%2F&scheme=dark';
/** The document address a served proxy page frames (from its own CSP's frame-src). */
const documentUrlOf = (response: Response) => /frame-src (\S+);/.exec(response.headers.get('content-security-policy') ?? '')?.[1] ?? '';

describe('the proxy page', () => {
  it('carries its configuration as data a value cannot break out of', () => {
    const html = proxyPageHtml({ parentOrigin: 'http://127.0.0.1:1</script><script>alert(1)</script>', allow: '', colorScheme: 'light', documentUrl: 'http://127.0.0.1:1/doc/t' }, 'N0NCE');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script nonce="N0NCE">');
    expect(html).not.toContain('</script><script>alert');
    expect(html).toContain('\\u003c/script\\u003e');
  });

  it('runs only its own script and style, frames only the app’s document, and only the page frames it (file: for the desktop)', () => {
    const policy = "default-src 'none'; script-src 'nonce-N'; style-src 'nonce-N'; frame-src http://127.0.0.1:5/doc/T; base-uri 'none'; form-action 'none'; frame-ancestors";
    expect(proxyPageHeaders('http://127.0.0.1:6', 'http://127.0.0.1:5/doc/T', 'N')['Content-Security-Policy']).toBe(`${policy} http://127.0.0.1:6`);
    expect(proxyPageHeaders('file://', 'http://127.0.0.1:5/doc/T', 'N')['Content-Security-Policy']).toBe(`${policy} file:`);
  });

  it('serves the app’s document with the app’s CSP, framed only from the sandbox origin', () => {
    expect(appDocumentHeaders("default-src 'none'", 'harbor-app://sandbox', 'file://')['Content-Security-Policy']).toBe("default-src 'none'; frame-ancestors harbor-app://sandbox file:");
    expect(appDocumentHeaders("default-src 'none'", 'http://127.0.0.1:5', 'http://localhost:6')['Content-Security-Policy']).toBe(
      "default-src 'none'; frame-ancestors http://127.0.0.1:5 http://localhost:6",
    );
  });
});

describe('document tickets', () => {
  it('open their app once, lapse after two minutes, and name nothing of the app', () => {
    let now = 0;
    const issued = new AppDocumentTickets(() => now);
    const ticket = issued.issue({ instanceId: 'instance-1', parentOrigin: 'file://' });
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(ticket).not.toContain('instance-1');
    expect(issued.take(ticket)).toEqual({ instanceId: 'instance-1', parentOrigin: 'file://' });
    expect(issued.take(ticket)).toBeUndefined();
    const late = issued.issue({ instanceId: 'instance-2', parentOrigin: 'file://' });
    now = 120_001;
    expect(issued.take(late)).toBeUndefined();
    expect(issued.take('never-issued')).toBeUndefined();
  });
});

describe('the desktop’s harbor-app: scheme', () => {
  it('serves an open app’s proxy page to the Harbor page’s frame, and its document once to that proxy', async () => {
    tickets = new AppDocumentTickets();
    expect(appSandboxUrl('open')).toBe('harbor-app://sandbox/app/open');
    const response = get(`${appSandboxUrl('open')}?parent=file%3A%2F%2F&scheme=dark`, { 'sec-fetch-dest': 'iframe' });
    expect(response.status).toBe(200);
    const documentUrl = documentUrlOf(response);
    expect(documentUrl).toMatch(/^harbor-app:\/\/sandbox\/doc\/[A-Za-z0-9_-]{24}$/);
    expect(response.headers.get('content-security-policy')).toMatch(/frame-ancestors file:$/);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const page = await response.text();
    expect(page).toContain('"colorScheme":"dark"');
    expect(page).toContain(`"documentUrl":"${documentUrl}"`);
    expect(get(documentUrl, { 'sec-fetch-dest': 'document' }).status).toBe(403); // opened on its own
    const document = get(documentUrl, { 'sec-fetch-dest': 'iframe' });
    expect(document.status).toBe(200);
    expect(document.headers.get('content-security-policy')).toBe("default-src 'none'; frame-src https://embed.example; frame-ancestors harbor-app://sandbox file:");
    expect(await document.text()).toBe(APP_HTML);
    expect(get(documentUrl, { 'sec-fetch-dest': 'iframe' }).status).toBe(404); // once
    expect(get('harbor-app://sandbox/doc/made-up-ticket', { 'sec-fetch-dest': 'iframe' }).status).toBe(404);
    expect(documentUrlOf(get(PROXY))).not.toBe(documentUrl); // each proxy page its own
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
    expect(isAppSandboxUrl('harbor-app://sandbox/doc/x')).toBe(false);
    // The page: only itself.
    expect(allowsNavigation(`${app}#/chat`, 0, isPage)).toBe(true);
    expect(allowsNavigation('harbor-app://sandbox/app/x', 0, isPage)).toBe(false);
    // The proxy: only its page, or blank when the app is put away.
    expect(allowsNavigation('harbor-app://sandbox/app/x', 1, isPage)).toBe(true);
    expect(allowsNavigation('about:blank', 1, isPage)).toBe(true);
    expect(allowsNavigation('https://evil.example/', 1, isPage)).toBe(false);
    expect(allowsNavigation(app, 1, isPage)).toBe(false);
    // The app: only a document of the sandbox; leaving it for another page is stopped.
    expect(allowsNavigation('harbor-app://sandbox/doc/ticket', 2, isPage)).toBe(true);
    expect(allowsNavigation('about:srcdoc', 2, isPage)).toBe(false);
    expect(allowsNavigation('harbor-app://sandbox/app/other', 2, isPage)).toBe(false);
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
