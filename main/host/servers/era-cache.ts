import { readFile } from 'node:fs/promises';
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import { writeFileAtomic } from '../fs-atomic';

interface EraRecord {
  readonly configHash: string;
  readonly prior: PriorDiscovery;
  /** A remote that answered Streamable HTTP the way legacy HTTP+SSE endpoints do: go straight to SSE. */
  readonly sse?: true;
  readonly at: number;
}

/** What a reconnect starts from: the era (and DiscoverResult), and for a remote, which transport. */
export interface EraVerdict {
  readonly prior: PriorDiscovery;
  readonly legacySse: boolean;
}

export type EraFinding = { era: 'modern'; discover: DiscoverResult } | { era: 'legacy'; sse?: boolean };

/**
 * The era verdict (and the modern DiscoverResult) per server, persisted in the data dir so a
 * reconnect skips the probe. A record is valid only for the launch configuration that produced
 * it: change the command, args, env, URL or headers and the server is probed again.
 */
export class EraCache {
  /** Read once, shared: servers connecting together must not each read (and replace) the records. */
  private loading: Promise<Record<string, EraRecord>> | undefined;
  private records: Record<string, EraRecord> = {};
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly path: string | undefined) {}

  async get(server: string, configHash: string): Promise<EraVerdict | undefined> {
    const records = await this.load();
    const record = records[server];
    if (!record || record.configHash !== configHash) return undefined;
    return { prior: record.prior, legacySse: record.sse === true && record.prior.kind === 'legacy' };
  }

  async set(server: string, configHash: string, finding: EraFinding): Promise<void> {
    const records = await this.load();
    records[server] = {
      configHash,
      prior: finding.era === 'modern' ? { kind: 'modern', discover: finding.discover } : { kind: 'legacy' },
      ...(finding.era === 'legacy' && finding.sse ? { sse: true as const } : {}),
      at: Date.now(),
    };
    await this.persist();
  }

  async forget(server: string): Promise<void> {
    const records = await this.load();
    if (!(server in records)) return;
    delete records[server];
    await this.persist();
  }

  private load(): Promise<Record<string, EraRecord>> {
    this.loading ??= this.read().then((records) => (this.records = records));
    return this.loading;
  }

  private async read(): Promise<Record<string, EraRecord>> {
    if (!this.path) return {};
    try {
      const parsed: unknown = JSON.parse(await readFile(this.path, 'utf8'));
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, EraRecord>) : {};
    } catch {
      // Missing or unreadable: it is only a cache, the next connect probes again.
      return {};
    }
  }

  private persist(): Promise<void> {
    const path = this.path;
    if (!path) return Promise.resolve();
    const text = `${JSON.stringify(this.records, null, 2)}\n`;
    // Serialise writes so two servers finishing at once cannot interleave renames.
    this.writing = this.writing.then(() => writeFileAtomic(path, text)).catch(() => undefined);
    return this.writing;
  }
}
