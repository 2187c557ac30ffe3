import { HarborError } from '../errors';
import { ServerList, ServerResponse } from './server-json';

/** How long one request to a registry may take before it counts as unreachable. */
export const REGISTRY_TIMEOUT_MS = 5_000;

/** The most Harbor reads of one registry answer (a page of 100 servers is far smaller): read as a stream and stopped there. */
export const REGISTRY_ANSWER_MAX_BYTES = 8 * 1024 * 1024;

export interface SearchPage {
  readonly servers: ServerResponse[];
  readonly nextCursor?: string;
}

type Fetch = typeof fetch;

/**
 * The MCP Registry API (`/v0.1/servers`): search, one server's version, and downloads of MCPB
 * packages. Every request is bounded (REGISTRY_TIMEOUT_MS), so an unreachable registry is a clear
 * message in seconds, never a hang; answers are parsed, never trusted.
 */
export class RegistryClient {
  constructor(
    private readonly fetchImpl: Fetch = fetch,
    private readonly timeoutMs = REGISTRY_TIMEOUT_MS,
    private readonly answerMaxBytes = REGISTRY_ANSWER_MAX_BYTES,
  ) {}

  async search(base: string, query: { search?: string; cursor?: string; limit?: number }): Promise<SearchPage> {
    const url = new URL(`${base}/v0.1/servers`);
    if (query.search) url.searchParams.set('search', query.search);
    if (query.cursor) url.searchParams.set('cursor', query.cursor);
    url.searchParams.set('limit', String(query.limit ?? 30));
    url.searchParams.set('version', 'latest');
    const parsed = ServerList.safeParse(await this.json(base, url));
    if (!parsed.success) throw badAnswer(base, 'the list of servers is not in the registry format');
    // One malformed entry does not hide the others.
    const servers = parsed.data.servers.flatMap((entry) => {
      const one = ServerResponse.safeParse(entry);
      return one.success ? [one.data] : [];
    });
    const next = parsed.data.metadata?.nextCursor;
    return { servers, ...(next ? { nextCursor: next } : {}) };
  }

  /** One server at one version ("latest" for the newest). */
  async server(base: string, name: string, version = 'latest'): Promise<ServerResponse> {
    const url = new URL(`${base}/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`);
    const parsed = ServerResponse.safeParse(await this.json(base, url, `"${name}"${version === 'latest' ? '' : ` version ${version}`}`));
    if (!parsed.success) throw badAnswer(base, `the entry of "${name}" is not in the server.json format`);
    return parsed.data;
  }

  /** A file (an MCPB package), at most `maxBytes`. */
  async download(url: string, maxBytes: number): Promise<Buffer> {
    const response = await this.request(url, new URL(url), { timeoutMs: this.timeoutMs * 8 });
    if (!response.ok) throw new HarborError('CONNECT_FAILED', `Downloading ${url} failed: ${response.status} ${response.statusText}. Nothing was installed.`);
    return readCapped(response, maxBytes, () => tooLarge(url, maxBytes));
  }

  private async json(base: string, url: URL, what?: string): Promise<unknown> {
    const response = await this.request(base, url, { timeoutMs: this.timeoutMs });
    if (response.status === 404 && what) throw new HarborError('SERVER_NOT_FOUND', `${what} is not in the MCP Registry at ${base}. Search with "harbor gallery search".`);
    if (!response.ok) throw new HarborError('CONNECT_FAILED', `The MCP Registry at ${base} answered ${response.status} ${response.statusText}. Try again later, or check the address.`);
    const body = await readCapped(response, this.answerMaxBytes, () =>
      badAnswer(base, `the answer is larger than ${Math.round(this.answerMaxBytes / 1024 / 1024)} MiB, the most Harbor reads from a registry`),
    ).catch((error: unknown) => {
      if (error instanceof HarborError) throw error;
      throw badAnswer(base, `the answer broke off (${(error as Error).message})`);
    });
    try {
      return JSON.parse(body.toString('utf8')) as unknown;
    } catch {
      throw badAnswer(base, 'the answer is not JSON');
    }
  }

  private async request(label: string, url: URL, options: { timeoutMs: number }): Promise<Response> {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new HarborError('BAD_REQUEST', `${label} is not an http(s) address.`);
    try {
      return await this.fetchImpl(url, { signal: AbortSignal.timeout(options.timeoutMs), headers: { accept: 'application/json, */*' }, redirect: 'follow' });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new HarborError('TIMEOUT', `The MCP Registry at ${label} did not answer within ${Math.round(options.timeoutMs / 1000)} s. Check the address (Settings → Gallery sources, or --registry) and your network.`);
      }
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code === 'ECONNREFUSED' ? 'nothing is listening there' : cause?.code === 'ENOTFOUND' ? 'the host name is unknown' : (cause?.message ?? (error as Error).message);
      throw new HarborError('CONNECT_FAILED', `Cannot reach the MCP Registry at ${label}: ${why}. Check the address (Settings → Gallery sources, or --registry) and your network.`);
    }
  }
}

/**
 * A response's body, read chunk by chunk and given up (the stream cancelled) as soon as it passes
 * `maxBytes`: a declared Content-Length over the cap is refused before reading, an undeclared or
 * false one when the bytes pass it. Memory stays within the cap whatever the sender does.
 */
async function readCapped(response: Response, maxBytes: number, tooBig: () => HarborError): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined); // refusing it is the point: an error cancelling changes nothing
    throw tooBig();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop (the throw) cancels the stream, so the rest is never read.
  for await (const chunk of (response.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw tooBig();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function badAnswer(base: string, why: string): HarborError {
  return new HarborError('PROTOCOL_ERROR', `The MCP Registry at ${base} sent an answer Harbor cannot read: ${why}. Is this the address of an MCP Registry?`);
}

function tooLarge(url: string, maxBytes: number): HarborError {
  return new HarborError('BAD_REQUEST', `${url} is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB, the most Harbor installs. Nothing was installed.`);
}
