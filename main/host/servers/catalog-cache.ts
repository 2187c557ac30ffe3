import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSpecType, type ServerCapabilities, type Tool } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { Era } from '../../../preload/contract';
import { canonical } from '../canonical-json';
import { writeFileAtomic } from '../fs-atomic';
import type { LogSink } from '../log/harbor-log';
import type { EraCache } from './era-cache';
import { configuredSse } from './era-negotiation';
import type { LaunchSpec } from './launch';

/** Bumped when an entry's meaning changes: an entry of another version is a cache miss. */
const VERSION = 1;
/**
 * How long an entry is offered: a server updated in place (`npx -y pkg` fetching a newer version,
 * same command line) may list new tools, so at least once a day it is started up front again.
 */
const MAX_AGE_MS = 24 * 3600_000;
/** An unchanged entry is written again (its time renewed) once it is this old. */
const RENEW_AFTER_MS = MAX_AGE_MS / 2;

/** Whether an entry is recent enough to offer a server's tools from without starting it. */
export function isFresh(entry: Pick<CachedCatalog, 'at'>, now = Date.now()): boolean {
  return now - entry.at < MAX_AGE_MS && entry.at <= now;
}

/** One server's catalog as `harbor exec` and `harbor chat` last saw it, and the launch it came from. */
const Entry = z.object({
  version: z.literal(VERSION),
  /** The launch consent's key (consent/identity.ts launchKey): a changed command, URL or header set misses. */
  launch: z.string(),
  /** The exact launch (launch.ts launchHash, the era cache's key): a changed env value, cwd or sandbox misses. */
  spec: z.string(),
  /** The protocol era it spoke: a server the era cache now knows otherwise misses. */
  era: Era,
  tools: z.array(z.custom<Tool>((value) => isSpecType.Tool(value))),
  instructions: z.string().optional(),
  /** It declared the Skills extension (a chat lists its skills every turn, so it is started up front). */
  skills: z.boolean(),
  at: z.number(),
});
export type CachedCatalog = z.infer<typeof Entry>;

/**
 * The Skills extension's id: the SDK's SKILLS_EXTENSION_ID (test/unit/skills-extension-id.test.ts
 * checks they agree), spelled here so that asking whether a server declares it does not load the
 * SDK's skills extension (~13 ms of CPU of every one-shot command, #32).
 */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** Whether a server's capabilities declare the Skills extension. */
export function declaresSkills(capabilities: ServerCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return extensions?.[SKILLS_EXTENSION_ID] !== undefined;
}

/** The era a connect of this exact launch would start from (the era cache's verdict), if known. */
export async function knownEra(eras: Pick<EraCache, 'get'>, server: string, spec: LaunchSpec, specHash: string): Promise<Era | undefined> {
  if (configuredSse(spec)) return 'legacy';
  return (await eras.get(server, specHash))?.prior.kind;
}

/**
 * Each server's tool catalog, kept in the data folder (`catalog-cache/<hash of the name>.json`,
 * owner-only, written atomically) so `harbor exec` and `harbor chat` can offer a server's tools
 * without starting it (services/lazy-catalogs.ts). Only a cache: the definitions a call is
 * checked and consented against always come from the running server. A missing file is a miss;
 * a damaged one is a miss written to Harbor's log, and is replaced by the next write.
 */
export class CatalogCache {
  /** Each server's entry as read (or last written) by this process. */
  private readonly entries = new Map<string, Promise<CachedCatalog | undefined>>();
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly dir: string,
    private readonly log?: LogSink,
  ) {}

  read(server: string): Promise<CachedCatalog | undefined> {
    let entry = this.entries.get(server);
    if (!entry) this.entries.set(server, (entry = this.load(server)));
    return entry;
  }

  /** Keeps `entry` for `server` (unless it holds that already); a failed write is logged, never thrown. */
  remember(server: string, entry: Omit<CachedCatalog, 'version' | 'at'>): Promise<void> {
    const write = this.write(server, entry);
    this.writes.add(write);
    return write.finally(() => this.writes.delete(write));
  }

  /** Resolves once every write started so far has ended (the Host waits for them before it stops). */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all(this.writes);
  }

  private async write(server: string, fields: Omit<CachedCatalog, 'version' | 'at'>): Promise<void> {
    const previous = await this.read(server);
    const unchanged = previous && Date.now() - previous.at < RENEW_AFTER_MS && canonical({ ...previous, at: 0 }) === canonical({ version: VERSION, ...fields, at: 0 });
    if (unchanged) return;
    const entry: CachedCatalog = { version: VERSION, ...fields, at: Date.now() };
    this.entries.set(server, Promise.resolve(entry));
    try {
      await writeFileAtomic(this.pathOf(server), `${JSON.stringify({ server, ...entry })}\n`);
    } catch (error) {
      // Only a cache: the next run starts this server up front and tries again.
      this.log?.write('warn', { area: 'servers', server, message: 'could not keep its tool catalog in the catalog cache', error });
    }
  }

  private async load(server: string): Promise<CachedCatalog | undefined> {
    const path = this.pathOf(server);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log?.write('warn', { area: 'servers', server, message: `the catalog cache ${path} could not be read; the server is started to list its tools`, error });
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined; // not JSON: the same miss as a wrong shape, logged as damaged just below
    }
    const entry = Entry.safeParse(parsed);
    // Another server's file under this name (a hash collision, a copied file) is no entry either.
    if (entry.success && (parsed as { server?: unknown }).server === server) return entry.data;
    this.log?.write('warn', { area: 'servers', server, message: `the catalog cache ${path} is damaged and was ignored; the server is started to list its tools` });
    return undefined;
  }

  private pathOf(server: string): string {
    return join(this.dir, `${createHash('sha256').update(server).digest('hex').slice(0, 32)}.json`);
  }
}
