/**
 * Browser mode's second origin: the MCP Apps sandbox proxies, on their own loopback port, so an
 * app's frame is never the Harbor page's origin (the specification requires a different origin;
 * same-origin would give the app the page, its token and its storage). It is also another SITE:
 * the page is on 127.0.0.1, its sandboxes on `localhost` (a port does not make a site), so the
 * browser's site isolation runs each proxy in a process of its own — on the page's site the proxy
 * shared the page's main thread, and an app sending 3.9 MB messages froze the page for 20 s
 * handling them (#27.10). A page opened on localhost frames them on 127.0.0.1 instead (the
 * renderer swaps the name: `separateSite`). The server serves 127.0.0.1; browsers resolve
 * `localhost` to loopback themselves, trying ::1 first, so it also holds [::1] on the same port
 * (where the machine has it): no other local process can answer for the sandbox origin there and
 * be framed with an app's bridge. Checked like the page:
 *  - Host header: 127.0.0.1/localhost on this port only (DNS rebinding);
 *  - a per-launch token in the path, different from the page's (the page gets it over its
 *    authenticated socket, inside each app's sandbox URL), and the app's unguessable instance id;
 *  - only frames (Sec-Fetch-Dest), and only the Harbor page may frame it (frame-ancestors with the
 *    page's exact origin, which the page names and which must be one of this launch's);
 *  - GET/HEAD only, and an Origin header, when a browser sends one, must be the page's.
 * A proxy page frames its app's document, served at /doc/<ticket> (a single-use address issued
 * with the proxy page, no token in it: the app can read it) with the app's CSP, decided by the Host
 * when the app was opened.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HarborError } from '../host/errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../host/lifecycle';
import { AppDocumentTickets } from '../app-sandbox/document-tickets';
import { appDocumentHeaders, proxyPageHeaders, proxyPageHtml, type AppSandboxPolicy, type ProxyPageConfig } from '../app-sandbox/proxy-page';
import { createToken, isAllowedHost, tokenMatches } from './security';
import { sendText } from './static';

const LOOPBACK = '127.0.0.1';
const ID = /^[A-Za-z0-9_-]{1,100}$/;

interface ProxyTarget {
  readonly kind: 'proxy';
  readonly instanceId: string;
  /** The page's origin, as it named itself (checked against this launch's). */
  readonly parent: string;
  readonly scheme: ProxyPageConfig['colorScheme'];
}

interface DocumentTarget {
  readonly kind: 'document';
  readonly ticket: string;
}

type Target = ProxyTarget | DocumentTarget;

export interface AppSandboxServerOptions {
  /** The Harbor page's origins this launch (http://127.0.0.1:PORT and http://localhost:PORT). */
  readonly pageOrigins: readonly string[];
  /** The policy of an open app, by instance id (undefined: not open). */
  readonly policyFor: (instanceId: string) => AppSandboxPolicy | undefined;
}

export class AppSandboxServer implements Disposable {
  private closing: Promise<void> | undefined;
  private readonly tickets = new AppDocumentTickets();

  private constructor(
    /** 127.0.0.1:port, and [::1]:port where the machine has IPv6 loopback. */
    private readonly servers: readonly Server[],
    readonly port: number,
    private readonly token: string,
    private readonly options: AppSandboxServerOptions,
  ) {
    for (const server of servers) server.on('request', (req: IncomingMessage, res: ServerResponse) => this.onRequest(req, res));
    trackDisposable(this);
  }

  static async start(options: AppSandboxServerOptions): Promise<AppSandboxServer> {
    for (let attempt = 1; ; attempt += 1) {
      const server = createServer();
      await listen(server, 0, LOOPBACK);
      const address = server.address();
      if (address === null || typeof address === 'string') throw new HarborError('INTERNAL', 'the app sandbox server has no TCP address');
      const v6 = createServer();
      const held = await listen(v6, address.port, '::1').then(
        () => 'held' as const,
        (error: NodeJS.ErrnoException) => error.code,
      );
      if (held === 'held') return new AppSandboxServer([server, v6], address.port, createToken(), options);
      // No IPv6 loopback on this machine: nobody can listen there either, and browsers use 127.0.0.1.
      if (held === 'EADDRNOTAVAIL' || held === 'EAFNOSUPPORT') return new AppSandboxServer([server], address.port, createToken(), options);
      // Someone holds [::1] on this port: another port, a few times, then say so.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (attempt >= 5) throw new HarborError('INTERNAL', `could not hold a port for the app sandbox on both 127.0.0.1 and [::1] (last: ${held ?? 'unknown error'})`);
    }
  }

  /** The sandbox's origin in the URLs it hands out: another site than the page's 127.0.0.1. */
  get origin(): string {
    return `http://localhost:${this.port}`;
  }

  /** The origins the page may frame (its CSP frame-src): the page on either name frames the other. */
  get origins(): readonly string[] {
    return [this.origin, `http://${LOOPBACK}:${this.port}`];
  }

  /** The sandbox page of one open app; the page adds `?parent=<its origin>&scheme=<light|dark>`. */
  urlFor(instanceId: string): string {
    return `${this.origin}/${this.token}/app/${encodeURIComponent(instanceId)}`;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    try {
      const checked = this.check(req);
      if ('status' in checked) {
        sendText(res, checked.status, checked.message, checked.status === 405 ? { Allow: 'GET, HEAD' } : {});
        return;
      }
      const holder = checked.kind === 'proxy' ? { instanceId: checked.instanceId, parentOrigin: checked.parent } : this.tickets.take(checked.ticket);
      const policy = holder === undefined ? undefined : this.options.policyFor(holder.instanceId);
      if (!holder || !policy) {
        sendText(res, 404, checked.kind === 'proxy' ? 'This app is not open any more.' : 'Not found.');
        return;
      }
      // The name this request came on (checked: 127.0.0.1 or localhost, this port): the proxy frames
      // its app's document on its own origin, and the document lets only that origin frame it.
      const origin = `http://${req.headers.host!.toLowerCase()}`;
      let body: Buffer;
      let headers: Record<string, string>;
      if (checked.kind === 'proxy') {
        const documentUrl = `${origin}/doc/${this.tickets.issue(holder)}`;
        const nonce = createToken();
        const config: ProxyPageConfig = { parentOrigin: checked.parent, allow: policy.allow, colorScheme: checked.scheme, documentUrl };
        body = Buffer.from(proxyPageHtml(config, nonce), 'utf8');
        headers = proxyPageHeaders(checked.parent, documentUrl, nonce);
      } else {
        body = Buffer.from(policy.html, 'utf8');
        headers = appDocumentHeaders(policy.csp, origin, holder.parentOrigin);
      }
      res.writeHead(200, { ...headers, 'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      if (!res.headersSent) sendText(res, 500, 'Internal error.');
      else res.destroy();
    }
  }

  /** The app a request may have the proxy page of, or why it is refused. */
  private check(req: IncomingMessage): Target | { status: 403 | 404 | 405; message: string } {
    if (!isAllowedHost(req.headers.host, this.port)) return { status: 403, message: 'Forbidden: this server answers only to 127.0.0.1 and localhost.' };
    if (req.method !== 'GET' && req.method !== 'HEAD') return { status: 405, message: 'Method not allowed.' };
    const target = this.target(req);
    // Wrong token and unknown path look the same: nothing here is worth probing for.
    if (!target) return { status: 404, message: 'Not found.' };
    const dest = req.headers['sec-fetch-dest'];
    if (dest !== undefined && dest !== 'iframe') return { status: 403, message: 'Forbidden: an app sandbox opens only inside Harbor.' };
    // An app's document is framed by its proxy, on this origin; its ticket was given to that proxy alone.
    if (target.kind === 'document') return target;
    const origin = req.headers.origin;
    if (origin !== undefined && !this.options.pageOrigins.includes(origin)) return { status: 403, message: 'Forbidden: only the Harbor page may load an app sandbox.' };
    if (!this.options.pageOrigins.includes(target.parent)) return { status: 403, message: 'Forbidden: only the Harbor page may frame an app sandbox.' };
    return target;
  }

  private target(req: IncomingMessage): Target | undefined {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    } catch {
      return undefined;
    }
    const parts = url.pathname.split('/');
    if (parts.length === 3 && parts[1] === 'doc' && ID.test(parts[2]!) && url.search === '') return { kind: 'document', ticket: parts[2]! };
    const [, token, kind, instanceId, ...rest] = parts;
    if (rest.length > 0 || kind !== 'app' || !instanceId || !ID.test(instanceId) || !tokenMatches(this.token, token)) return undefined;
    const requested = url.searchParams.get('scheme');
    const scheme = requested === 'light' || requested === 'dark' ? requested : 'light dark';
    return { kind: 'proxy', instanceId, parent: url.searchParams.get('parent') ?? '', scheme };
  }

  dispose(): Promise<void> {
    markAsDisposed(this);
    this.closing ??= Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    ).then(() => undefined);
    return this.closing;
  }
}

/** Listens on exactly `host` (no dual-stack), resolving once listening or rejecting with the error. */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true, ipv6Only: host === '::1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
