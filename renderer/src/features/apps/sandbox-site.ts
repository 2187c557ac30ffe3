const LOOPBACK_NAMES: Readonly<Record<string, string>> = { '127.0.0.1': 'localhost', localhost: '127.0.0.1' };

/**
 * Browser mode's sandbox URL on another SITE than the page (`pageOrigin`): the sandbox server
 * answers to both loopback names and hands out `localhost`; a page opened on localhost frames it on
 * 127.0.0.1 instead. A port does not make a site, so on the page's own name the browser would keep
 * the app's proxy in the page's process, and an app's big messages would be the page's main
 * thread's work (#27.10). Other URLs (the desktop's harbor-app:) are returned as they are.
 */
export function separateSite(sandboxUrl: string, pageOrigin: string): string {
  const url = new URL(sandboxUrl);
  const page = new URL(pageOrigin);
  const other = LOOPBACK_NAMES[url.hostname];
  if (url.protocol !== 'http:' || other === undefined || url.hostname !== page.hostname) return sandboxUrl;
  url.hostname = other;
  return url.toString();
}
