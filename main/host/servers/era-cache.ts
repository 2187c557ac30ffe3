import { readFile } from 'node:fs/promises';
import { isSpecType, type DiscoverResult, type PriorDiscovery } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { writeFileAtomic } from '../fs-atomic';
import { withFileLock } from '../file-lock';

/** One server's record as stored; the DiscoverResult is checked with the SDK's own spec schema. */
const EraRecord = z.object({
  configHash: z.string(),
  prior: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('legacy') }),
    z.object({ kind: z.literal('modern'), discover: z.custom<DiscoverResult>((value) => isSpecType.DiscoverResult(value)) }),
  ]),
  /** A remote that answered Streamable HTTP the way legacy HTTP+SSE endpoints do: go straight to SSE. */
  sse: z.literal(true).optional(),
  at: z.number(),
});
type EraRecord = z.infer<typeof EraRecord>;

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
    const prior: PriorDiscovery = record.prior;
    return { prior, legacySse: record.sse === true && record.prior.kind === 'legacy' };
  }

  async set(server: string, configHash: string, finding: EraFinding): Promise<void> {
    const record: EraRecord = {
      configHash,
      prior: finding.era === 'modern' ? { kind: 'modern', discover: finding.discover } : { kind: 'legacy' },
      ...(finding.era === 'legacy' && finding.sse ? { sse: true as const } : {}),
      at: Date.now(),
    };
    (await this.load())[server] = record;
    await this.persist((records) => void (records[server] = record));
  }

  async forget(server: string): Promise<void> {
    const records = await this.load();
    if (!(server in records)) return;
    delete records[server];
    await this.persist((current) => void delete current[server]);
  }

  /** The records as this process knows them: read once, then as each write of its own found the file. */
  private async load(): Promise<Record<string, EraRecord>> {
    this.loading ??= this.read().then((records) => (this.records = records));
    await this.loading;
    return this.records;
  }

  /**
   * The records on disk, parsed. It is only a cache: a missing, unreadable or corrupt file, or an
   * entry of another shape (an older Harbor, a hand edit), is ignored as a cache miss — that
   * server is probed again — and disappears with the next write. Never a crash.
   */
  private async read(): Promise<Record<string, EraRecord>> {
    if (!this.path) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8'));
    } catch {
      return {};
    }
    const file = z.record(z.string(), z.unknown()).safeParse(parsed);
    if (!file.success) return {};
    const valid = Object.entries(file.data).flatMap(([server, value]) => {
      const record = EraRecord.safeParse(value);
      return record.success ? [[server, record.data] as const] : [];
    });
    return Object.fromEntries(valid);
  }

  /**
   * Applies `change` to the file as it is now, not as this process read it: other Harbors (the
   * app, CLI commands) write their servers' entries too. Re-read, change and rename happen under
   * a lock between processes (cache-lock.ts); this process's writes are serialised as well.
   */
  private persist(change: (records: Record<string, EraRecord>) => void): Promise<void> {
    const path = this.path;
    if (!path) return Promise.resolve();
    const write = async () => {
      // The same lock as harbor.json's (`era-cache.json.lock`); a write that cannot get it in time is dropped below.
      await withFileLock(path, async () => {
        const current = await this.read();
        change(current);
        this.records = current;
        await writeFileAtomic(path, `${JSON.stringify(current, null, 2)}\n`);
      });
    };
    // Only a cache: a write that fails (a full disk, no lock in time) is a probe again next time.
    this.writing = this.writing.then(write).catch(() => undefined);
    return this.writing;
  }
}
