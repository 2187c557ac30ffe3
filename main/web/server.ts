/**
 * Browser mode's server: plain Node HTTP on 127.0.0.1 only, serving the built renderer and the
 * contract over a WebSocket at /ws. Every request passes the checks in ./security before it reaches
 * a file or the Host; refusals happen at the HTTP handshake, so a refused socket never opens.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { realpath } from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { WebSocketServer } from 'ws';
import { base64Length, FILE_LIMITS } from '../../preload/contract';
import type { Dispatch } from '../dispatch';
import { HarborError } from '../host/errors';
import type { HostEventStream } from '../host/events';
import { markAsDisposed, trackDisposable, type Disposable } from '../host/lifecycle';
import type { AppSandboxPolicy } from '../app-sandbox/proxy-page';
import { AppSandboxServer } from './app-sandbox-server';
import { attachSession } from './socket';
import { createToken, isAllowedHost, isAllowedOrigin, securityHeaders, tokenMatches } from './security';
import { sendText, serveStatic } from './static';

export const LOOPBACK = '127.0.0.1';
export const WS_PATH = '/ws';
/**
 * Largest frame a tab may send: commands are small JSON objects, except a chat message carrying
 * files (up to the contract's FILE_LIMITS, as base64, with their previews).
 */
const MAX_FRAME_BYTES = 1024 * 1024 + base64Length(FILE_LIMITS.maxTotalBytes) + FILE_LIMITS.maxFiles * FILE_LIMITS.maxThumbnailChars;
/** How long closing sockets get to finish their close handshake before they are cut. */
const CLOSE_GRACE_MS = 1000;

export interface WebServerOptions {
  /** The built renderer folder (holds index.html). */
  readonly rendererDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly dispatch: Dispatch;
  /** Host events, forwarded to every open socket as `{event, payload}` frames. */
  readonly events: Pick<HostEventStream, 'on'>;
  /** MCP Apps: the policy of an open app; given, a second origin serves their sandboxes. */
  readonly appPolicy?: (instanceId: string) => AppSandboxPolicy | undefined;
  /** Where a socket cut for an error is said (a frame over the limit, a broken frame): the page itself only sees its connection close. */
  readonly reportSocketCut?: (reason: string) => void;
}

interface Refusal {
  readonly status: 401 | 403 | 404;
  readonly message: string;
}

export class WebServer implements Disposable {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  private readonly eventSubscription: Disposable;
  private readonly pageHeaders: Readonly<Record<string, string>>;
  private disposing: Promise<void> | undefined;

  private constructor(
    private readonly server: Server,
    private readonly root: string,
    readonly port: number,
    readonly token: string,
    private readonly dispatch: Dispatch,
    events: Pick<HostEventStream, 'on'>,
    /** Browser mode's second origin, for MCP Apps (absent when the server was started without apps). */
    readonly appSandbox: AppSandboxServer | undefined,
    private readonly reportSocketCut: ((reason: string) => void) | undefined,
  ) {
    // The page may frame exactly its own app sandbox origins (the port under either name), nothing else.
    this.pageHeaders = securityHeaders(appSandbox ? appSandbox.origins : []);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void this.onRequest(req, res);
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.onUpgrade(req, socket, head);
    });
    this.eventSubscription = events.on((event, payload) => this.broadcast(event, payload));
    trackDisposable(this);
  }

  /** Binds 127.0.0.1 (never another interface) and resolves once listening. */
  static async start(options: WebServerOptions): Promise<WebServer> {
    const root = await realpath(options.rendererDir);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        reject(
          error.code === 'EADDRINUSE' || error.code === 'EACCES'
            ? new HarborError(
                'BAD_REQUEST',
                `Cannot listen on ${LOOPBACK}:${options.port} (${error.code === 'EADDRINUSE' ? 'the port is in use' : 'permission denied'}). Pick another port with --port N, or --port 0 for any free port.`,
              )
            : error,
        );
      };
      server.once('error', onError);
      server.listen({ port: options.port, host: LOOPBACK, exclusive: true }, () => {
        server.off('error', onError);
        resolve();
      });
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
    const { port } = address;
    const policyFor = options.appPolicy;
    let sandbox: AppSandboxServer | undefined;
    try {
      sandbox = policyFor ? await AppSandboxServer.start({ pageOrigins: [`http://${LOOPBACK}:${port}`, `http://localhost:${port}`], policyFor }) : undefined;
    } catch (error) {
      server.close();
      throw error;
    }
    return new WebServer(server, root, port, createToken(), options.dispatch, options.events, sandbox, options.reportSocketCut);
  }

  /** The URL to open: the token rides in the fragment, which browsers never send to a server. */
  get url(): string {
    return `http://${LOOPBACK}:${this.port}/#token=${this.token}`;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (!isAllowedHost(req.headers.host, this.port)) {
        sendText(res, 403, 'Forbidden: this server answers only to 127.0.0.1 and localhost.');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendText(res, 405, 'Method not allowed.', { Allow: 'GET, HEAD' });
        return;
      }
      await serveStatic(this.root, req, res, this.pageHeaders);
    } catch {
      if (!res.headersSent) sendText(res, 500, 'Internal error.');
      else res.destroy();
    }
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const refusal = this.checkHandshake(req);
    if (refusal) {
      refuse(socket, refusal);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', (error) => {
        this.reportSocketCut?.(`a page's connection was cut: ${error.message}`);
        ws.terminate();
      });
      attachSession(ws, this.dispatch);
    });
  }

  /** Host, then Origin, then token: the order only decides which refusal a bad request sees. */
  private checkHandshake(req: IncomingMessage): Refusal | undefined {
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    if (url.pathname !== WS_PATH) return { status: 404, message: 'Not found.' };
    if (!isAllowedHost(req.headers.host, this.port)) {
      return { status: 403, message: 'Forbidden: this server answers only to 127.0.0.1 and localhost.' };
    }
    if (!isAllowedOrigin(req.headers.origin, req.headers.host, this.port)) {
      return { status: 403, message: 'Forbidden: WebSocket connections are accepted only from the Harbor page itself.' };
    }
    if (!tokenMatches(this.token, url.searchParams.get('token'))) {
      return { status: 401, message: 'Unauthorized: open the exact URL "harbor web" printed; it carries the access token.' };
    }
    return undefined;
  }

  private broadcast(event: string, payload: unknown): void {
    // An unserialisable payload is a Host bug: it throws into the event bus, which logs it and goes on.
    const text = JSON.stringify({ event, payload });
    for (const client of this.wss.clients) {
      if (client.readyState === client.OPEN) client.send(text);
    }
  }

  /** Closes every socket (politely, then firmly), stops listening, and drops the event subscription. */
  dispose(): Promise<void> {
    markAsDisposed(this);
    this.disposing ??= (async () => {
      await this.eventSubscription.dispose();
      const closing = [...this.wss.clients].map(
        (client) =>
          new Promise<void>((resolve) => {
            if (client.readyState === client.CLOSED) return resolve();
            client.once('close', () => resolve());
            client.close(1001, 'Harbor is shutting down');
          }),
      );
      await Promise.race([Promise.all(closing), delay(CLOSE_GRACE_MS, undefined, { ref: false })]);
      for (const client of this.wss.clients) client.terminate();
      await new Promise<void>((resolve) => this.wss.close(() => resolve()));
      await new Promise<void>((resolve) => {
        this.server.close(() => resolve());
        this.server.closeAllConnections();
      });
      await this.appSandbox?.dispose();
    })();
    return this.disposing;
  }
}

function refuse(socket: Duplex, refusal: Refusal): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${refusal.message}\n`;
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
