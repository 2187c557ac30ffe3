import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One HTTP request that passed the proxy, with the JSON-RPC methods its body carried. */
export interface SeenRequest {
  readonly httpMethod: string;
  readonly path: string;
  readonly session: string | undefined;
  readonly rpcMethods: readonly string[];
  readonly body: string;
}

export interface CountingProxy {
  /** `http://127.0.0.1:PORT` — append the target's path. */
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** How many JSON-RPC requests or notifications with this method went to the server. */
  count(rpcMethod: string): number;
  close(): Promise<void>;
}

/**
 * A reverse proxy on 127.0.0.1 in front of a real HTTP server that writes down every request on
 * the wire (HTTP method, session header, JSON-RPC methods), so a test counts what Harbor really
 * sent: DELETEs that end sessions, lists per connect. Responses (SSE streams included) pass through
 * unbuffered.
 */
export async function startCountingProxy(targetPort: number): Promise<CountingProxy> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const session = req.headers['mcp-session-id'];
      requests.push({
        httpMethod: req.method ?? '',
        path: req.url ?? '',
        session: Array.isArray(session) ? session[0] : session,
        rpcMethods: rpcMethodsOf(body.toString('utf8')),
        body: body.toString('utf8'),
      });
      const upstream = http.request(
        { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${targetPort}` } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    count: (rpcMethod) => requests.reduce((n, r) => n + r.rpcMethods.filter((m) => m === rpcMethod).length, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function rpcMethodsOf(body: string): string[] {
  if (!body.trim()) return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.flatMap((m) => (typeof m === 'object' && m !== null && typeof (m as { method?: unknown }).method === 'string' ? [(m as { method: string }).method] : []));
  } catch {
    return [];
  }
}
