import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarborError } from '../errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';

export const CALLBACK_PATH = '/callback';

interface Waiter {
  resolve(params: URLSearchParams): void;
  reject(error: unknown): void;
}

/**
 * The loopback redirect target of every sign-in: `http://127.0.0.1:<port>/callback`, bound to
 * 127.0.0.1 only, started on first need and shared by all servers of one Host. A callback is
 * accepted only when its `state` is one Harbor is waiting for (the SDK does not check `state`):
 * anything else — a stale tab, a forged link from a web page — is answered 400 and changes
 * nothing. Each state is accepted once.
 */
export class LoopbackCallbackServer implements Disposable {
  private server: Server | undefined;
  private starting: Promise<void> | undefined;
  private port = 0;
  private readonly waiters = new Map<string, Waiter>();
  private disposed = false;

  constructor() {
    trackDisposable(this);
  }

  /** Listens (once); `preferredPort` is tried first so a registration that named it stays valid. */
  start(preferredPort?: number): Promise<void> {
    if (this.disposed) return Promise.reject(new HarborError('CANCELLED', 'Harbor is shutting down.'));
    this.starting ??= this.listen(preferredPort).catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  get listening(): boolean {
    return this.port !== 0;
  }

  /** The redirect URI; only valid once `start()` resolved. */
  get redirectUrl(): string {
    if (!this.port) throw new Error('The sign-in callback listener is not started.');
    return `http://127.0.0.1:${this.port}${CALLBACK_PATH}`;
  }

  /**
   * Resolves with the callback's query once a request with exactly this `state` arrives;
   * rejects on timeout or abort. Register before opening the browser so no callback is missed.
   */
  expect(state: string, options: { timeoutMs: number; signal?: AbortSignal; onTimeout: () => unknown }): Promise<URLSearchParams> {
    if (!state) return Promise.reject(new Error('A sign-in needs a state value.'));
    return new Promise((resolve, reject) => {
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(state);
        fn();
      };
      // Not unref'd: while Harbor waits for a sign-in it opened, the process must stay alive (the
      // listener itself is unref'd, so `harbor login` would otherwise exit before the callback).
      const timer = setTimeout(() => finish(() => reject(options.onTimeout())), options.timeoutMs);
      const onAbort = () => finish(() => reject(options.signal?.reason ?? new HarborError('CANCELLED', 'Sign-in was cancelled.')));
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(state, {
        resolve: (params) => finish(() => resolve(params)),
        reject: (error) => finish(() => reject(error)),
      });
    });
  }

  /** Ends a wait early (the opener failed, the operation gave up). */
  cancel(state: string, error: unknown): void {
    this.waiters.get(state)?.reject(error);
  }

  get pendingCount(): number {
    return this.waiters.size;
  }

  private listen(preferredPort: number | undefined): Promise<void> {
    // node:http when a sign-in needs it: an ES import would load its HTTP stack at every start (#32).
    const server = process.getBuiltinModule('node:http').createServer((req, res) => this.handle(req, res));
    server.keepAliveTimeout = 1_000;
    const bind = (port: number) =>
      new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => {
          server.off('listening', onListening);
          reject(error);
        };
        const onListening = () => {
          server.off('error', onError);
          resolve();
        };
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen(port, '127.0.0.1');
      });
    return (async () => {
      try {
        await bind(preferredPort ?? 0);
      } catch (error) {
        if (!preferredPort) throw error;
        await bind(0); // taken by something else: any free port, the provider re-registers if it must
      }
      // Never keeps a CLI process alive on its own.
      server.unref();
      this.server = server;
      this.port = (server.address() as AddressInfo).port;
      if (this.disposed) await this.close();
    })();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // A page in the person's browser may send requests here too (DNS rebinding): only requests
    // addressed to 127.0.0.1:<our port> are served.
    if (req.headers.host !== `127.0.0.1:${this.port}` || req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      page(res, 404, 'Not found', 'There is nothing here.');
      return;
    }
    const state = url.searchParams.get('state') ?? '';
    const waiter = this.waiters.get(state);
    if (!waiter) {
      page(res, 400, 'Sign-in link not recognised', 'Harbor is not waiting for this sign-in (it may have finished, timed out, or come from somewhere else). Start the sign-in again from Harbor.');
      return;
    }
    waiter.resolve(url.searchParams);
    if (url.searchParams.has('error')) {
      // The authorization server's own error text is not shown: in a mix-up attack it is the attacker's.
      page(res, 200, 'Sign-in not completed', 'The authorization server did not grant access. You can close this tab and return to Harbor.');
    } else {
      page(res, 200, 'Signed in', 'Harbor received the sign-in. You can close this tab and return to Harbor.');
    }
  }

  private close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.port = 0;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    for (const waiter of [...this.waiters.values()]) waiter.reject(new HarborError('CANCELLED', 'Harbor is shutting down: the sign-in was cancelled.'));
    await this.starting?.catch(() => undefined); // a start that failed was reported to whoever awaited it; here we only wait it out
    await this.close();
  }
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>Harbor: ${title}</title></head><body style="font-family:system-ui,sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}
