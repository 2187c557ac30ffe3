/**
 * An app's first paint (#32 goal 5): the sandbox proxy frames the app's document as soon as it
 * runs — the document is the Host's copy at a single-use address issued with this proxy page, so
 * the page's go-ahead (ui/notifications/sandbox-resource-ready, whose html the proxy never used)
 * adds nothing but a round trip through the page's busy main thread (23–166 ms measured under load)
 * before the document's request. The go-ahead, when it comes, frames nothing a second time.
 * The proxy's script runs here in a VM with a stand-in window and document.
 */
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { proxyPageHtml } from '../../main/app-sandbox/proxy-page';

const DOC = 'http://127.0.0.1:9/doc/ticket';
const PARENT = 'http://127.0.0.1:8';

function runProxy() {
  const html = proxyPageHtml({ parentOrigin: PARENT, allow: '', colorScheme: 'light', documentUrl: DOC }, 'N');
  const script = /<script nonce="N">([\s\S]*)<\/script>/.exec(html)![1]!;
  const appended: { src: string }[] = [];
  const toParent: unknown[] = [];
  const listeners: ((event: unknown) => void)[] = [];
  const parent = { postMessage: (data: unknown) => toParent.push(data) };
  const window = { parent, addEventListener: (type: string, listener: (event: unknown) => void) => type === 'message' && listeners.push(listener) };
  const document = {
    documentElement: { style: {} },
    body: { append: (frame: { src: string }) => appended.push(frame) },
    createElement: () => ({ src: '', contentWindow: {}, setAttribute: () => undefined, addEventListener: () => undefined, remove: () => undefined }),
  };
  runInNewContext(script, { window, document, history: { replaceState: () => undefined }, performance: { now: () => 0 } });
  const fromPage = (data: unknown) => {
    for (const listener of listeners) listener({ source: parent, origin: PARENT, data });
  };
  return { appended, toParent, fromPage };
}

it('frames the app document at once, before the page answers sandbox-proxy-ready; the go-ahead frames nothing more', () => {
  const proxy = runProxy();
  expect(proxy.toParent).toEqual([{ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }]);
  expect(proxy.appended.map((f) => f.src)).toEqual([DOC]);
  proxy.fromPage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<p>app</p>' } });
  expect(proxy.appended.map((f) => f.src)).toEqual([DOC]);
});
