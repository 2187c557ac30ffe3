import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { jsonSizeAtMost } from '../text-preview';

/** How much app HTML the Host keeps for showing apps again: 8 MiB of it (characters), least recently shown dropped first. */
export const APP_RESOURCE_CACHE_BYTES = 8 * 1024 * 1024;

interface Cached {
  readonly read: ReadResourceResult;
  readonly size: number;
}

/**
 * Apps' `ui://` resources as their servers last gave them, keyed by server and URI, so showing an
 * app again — every tool call with an app shows one — reuses the one copy instead of reading (and
 * logging, and holding) hundreds of kilobytes each time. Whoever owns it forgets a server's
 * entries when the server says they changed (`resources/updated`, a changed resource list) or
 * when it restarts or is reconfigured. Bounded by size: a resource larger than the whole cache is
 * not kept.
 */
export class AppResourceCache {
  private readonly entries = new Map<string, Cached>();
  /** Per server, raised by `forget`: a read that started before it is not stored after it. */
  private readonly generations = new Map<string, number>();
  private total = 0;

  constructor(private readonly maxBytes = APP_RESOURCE_CACHE_BYTES) {}

  /** The sum of the kept resources' sizes. */
  get bytes(): number {
    return this.total;
  }

  /** The kept read, most recently used from now on; undefined when not kept. */
  get(server: string, uri: string): ReadResourceResult | undefined {
    const key = keyOf(server, uri);
    const cached = this.entries.get(key);
    if (!cached) return undefined;
    this.entries.delete(key);
    this.entries.set(key, cached);
    return cached.read;
  }

  /** Reads through the cache: `read` runs only when nothing is kept (and its answer is kept unless the server changed meanwhile). */
  async through(server: string, uri: string, read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
    const kept = this.get(server, uri);
    if (kept) return kept;
    const generation = this.generations.get(server) ?? 0;
    const fresh = await read();
    if ((this.generations.get(server) ?? 0) === generation) this.set(server, uri, fresh);
    return fresh;
  }

  set(server: string, uri: string, read: ReadResourceResult): void {
    const key = keyOf(server, uri);
    this.drop(key);
    const size = jsonSizeAtMost(read, this.maxBytes);
    if (size > this.maxBytes) return;
    this.entries.set(key, { read, size });
    this.total += size;
    for (const oldest of this.entries.keys()) {
      if (this.total <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  /** Forgets one resource of a server, or all of them. */
  forget(server: string, uri?: string): void {
    this.generations.set(server, (this.generations.get(server) ?? 0) + 1);
    if (uri !== undefined) return this.drop(keyOf(server, uri));
    const prefix = keyOf(server, '');
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.drop(key);
  }

  private drop(key: string): void {
    const cached = this.entries.get(key);
    if (!cached) return;
    this.entries.delete(key);
    this.total -= cached.size;
  }
}

function keyOf(server: string, uri: string): string {
  return `${server}\u0000${uri}`;
}
