import type { Tool } from '@modelcontextprotocol/client';
import type { ConsentGate } from '../consent/gate';
import { launchKey } from '../consent/identity';
import type { ToolReview } from '../consent/policy';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { oauthSecretUses, secretUses } from '../secrets/references';
import { declaresSkills, isFresh, knownEra, type CachedCatalog, type CatalogCache } from '../servers/catalog-cache';
import type { EraCache } from '../servers/era-cache';
import type { ChatSkills } from '../chat/turn-skills';
import type { ServerControl } from './server-control';
import type { ServerIdentities } from './server-identities';

/** What the model or a script is offered of a server, as the doors give it (cleaned at the exit). */
export interface OfferDoors {
  offeredCatalog(server: string): Promise<{ readonly tools: readonly Tool[] }>;
  instructions(server: string): Promise<string | undefined>;
  toolChanges(server: string): Promise<readonly ToolReview[]>;
}

export interface LazyCatalogsDeps {
  readonly servers: Pick<ServerControl, 'connection' | 'launchTarget' | 'get'>;
  readonly consent: Pick<ConsentGate, 'isLaunchApproved' | 'isSecretBound' | 'asApproved' | 'reviews'>;
  readonly identities: Pick<ServerIdentities, 'of'>;
  readonly cache: CatalogCache;
  readonly eras: Pick<EraCache, 'get'>;
  /** The doors' own answers: they start the server (`servers.ready`). */
  readonly live: OfferDoors;
  /** What a cached answer passes on its way out, as the doors' answers do (the exit's mask). */
  readonly clean: <T>(value: T) => T;
}

/**
 * The catalogs `harbor exec` and `harbor chat` build the script's API and the model's tool list
 * from (#31.22): a server not running whose catalog the cache holds for exactly its launch and
 * era (a day old at most) is not started for it — its cached tools are offered (as the person
 * approved them, like the doors' offeredCatalog) and it starts at its first call, where the call
 * meets the server's real definition and consent judges that. Every other server is read from
 * the doors, which start it as before. A server whose launch (or a secret it carries) needs
 * consent that is not given, whose sign-in expired or was refused, or that publishes skills
 * (listed every chat turn), is never served from the cache, so what needs the person's consent is
 * still refused before anything runs.
 */
export class LazyCatalogs implements OfferDoors {
  constructor(private readonly deps: LazyCatalogsDeps) {}

  async offeredCatalog(server: string): Promise<{ readonly tools: readonly Tool[] }> {
    const cached = await this.cached(server);
    if (!cached) return this.deps.live.offeredCatalog(server);
    return this.deps.clean({ tools: this.deps.consent.asApproved(cached.identity, cached.entry.tools) });
  }

  async instructions(server: string): Promise<string | undefined> {
    const cached = await this.cached(server);
    if (!cached) return this.deps.live.instructions(server);
    return this.deps.clean(cached.entry.instructions);
  }

  async toolChanges(server: string): Promise<readonly ToolReview[]> {
    const cached = await this.cached(server);
    if (!cached) return this.deps.live.toolChanges(server);
    return this.deps.clean(this.deps.consent.reviews(cached.identity, cached.entry.tools));
  }

  /** The chat's skills: a server offered from the cache publishes none (one that does is never offered from it) until it starts. */
  skills(skills: ChatSkills): ChatSkills {
    return {
      load: (ref, options) => skills.load(ref, options),
      readFile: (ref, path, options) => skills.readFile(ref, path, options),
      list: async (server, options) => ((await this.cached(server)) ? [] : skills.list(server, options)),
    };
  }

  /** The cache entry to offer `server` from, or undefined: read it from the running server (starting it). */
  private async cached(server: string): Promise<{ identity: string; entry: CachedCatalog } | undefined> {
    let connection: ReturnType<ServerControl['connection']>;
    let target: ReturnType<ServerControl['launchTarget']>;
    try {
      connection = this.deps.servers.connection(server);
      target = this.deps.servers.launchTarget(server);
    } catch {
      // An unknown, disabled or misconfigured server (HarborError): the doors say what is wrong with it
      // when its catalog is read live. Only these lookups are guarded; anything else is a real failure.
      return undefined;
    }
    if (connection.state.kind === 'ready') return undefined;
    if (!this.deps.consent.isLaunchApproved(target)) return undefined;
    const secrets = [...secretUses(target.spec), ...oauthSecretUses((target.config as { oauth?: unknown }).oauth)];
    if (secrets.some((use) => !this.deps.consent.isSecretBound(use.name, target.server.identity))) return undefined;
    // A remote whose sign-in expired or was refused: started up front, so the run says so before anything runs.
    const signIn = this.deps.servers.get(server).signIn?.state;
    if (signIn === 'expired' || signIn === 'refused') return undefined;
    const entry = await this.deps.cache.read(server);
    if (!entry || entry.skills || !isFresh(entry)) return undefined;
    if (entry.launch !== launchKey(target.config) || entry.spec !== connection.configHash) return undefined;
    if ((await knownEra(this.deps.eras, server, target.spec, connection.configHash)) !== entry.era) return undefined;
    return { identity: target.server.identity, entry };
  }
}

/**
 * Keeps the catalog cache in step with the servers that run (CLI commands that fetch tools):
 * each server that becomes ready, or whose tools change, has its catalog written. Disposed before
 * the servers stop; waits for the writes under way.
 */
export class CatalogCacheKeeper implements Disposable {
  private readonly listening: Disposable;

  constructor(
    events: HostEvents,
    private readonly deps: Pick<LazyCatalogsDeps, 'servers' | 'identities' | 'cache'>,
  ) {
    trackDisposable(this);
    this.listening = events.onEvent('servers.changed', (event) => {
      if (event.reason === 'state' || (event.reason === 'catalog' && event.changed?.includes('tools'))) this.remember(event.name);
    });
  }

  private remember(server: string): void {
    let connection;
    try {
      connection = this.deps.servers.connection(server);
    } catch {
      return; // removed or disabled meanwhile: nothing runs to remember
    }
    const era = connection.info.era;
    if (connection.state.kind !== 'ready' || !era) return;
    const { instructions, capabilities } = connection.info;
    void this.deps.cache.remember(server, {
      launch: launchKey(this.deps.identities.of(server).config),
      spec: connection.configHash,
      era,
      tools: [...connection.catalog.tools],
      ...(instructions ? { instructions } : {}),
      skills: declaresSkills(capabilities),
    });
  }

  async dispose(): Promise<void> {
    markAsDisposed(this);
    await this.listening.dispose();
    await this.deps.cache.settled();
  }
}
