import type { Channel } from './channel';
import { EMPTY_CATALOG, diffCatalog, type Catalog, type CatalogKind } from './catalog';
import type { ConnectionInfo } from './connection-types';

/** The current attempt's connected channel and what the server said about itself. */
export interface CatalogSource {
  readonly channel: Channel;
  readonly info: ConnectionInfo;
}

export interface CatalogSyncOptions {
  /** Undefined while nothing is connected (mid-connect, stopped): there is nothing to read then. */
  readonly source: () => CatalogSource | undefined;
  /** Timeout of each list request. */
  readonly timeoutMs: number;
  /** Whether the connection is ready: a listen stream that ends is reopened only then. */
  readonly isReady: () => boolean;
  readonly onChange: (changed: readonly CatalogKind[]) => void;
  /**
   * What a connect fetches (default: every list). A one-shot command asks only for what it shows
   * or needs (`harbor call` the tools, not the prompts); the others stay empty until refreshed.
   */
  readonly connectKinds?: readonly CatalogKind[];
  /** Where a failure no caller awaits is said, with what was being done (Harbor's log). */
  readonly log?: (message: string, error: unknown) => void;
}

/** A refresh that is queued and has not sent anything yet: later changes join it. */
interface QueuedRefresh {
  /** Undefined: every kind. */
  kinds: Set<CatalogKind> | undefined;
  readonly emit: boolean;
  /** A connect's fetch: the SDK's list cache may answer it (a refresh asks the server). */
  readonly connect: boolean;
  done: Promise<void>;
}

/** How long a connect waits for a legacy server's post-initialize announcements before reading the catalog anyway. */
const ANNOUNCEMENT_WAIT_MS = 2_000;

/**
 * One server's catalog (tools, resources, templates, prompts), kept fresh: full fetches on
 * connect, partial refetches on `list_changed` (legacy) or on the modern `subscriptions/listen`
 * stream, which is reopened when the server ends it. The catalog outlives connections: a
 * stopped server still shows what it offered.
 *
 * Each list is read once per change, not once per announcement: a change announced while a
 * refresh of that kind is queued and has not been sent yet is covered by it (its answer is
 * necessarily newer), so a burst of `list_changed` costs at most the fetch in flight and one more.
 */
export class CatalogSync {
  private current: Catalog = EMPTY_CATALOG;
  /** When the catalog shown was last fetched whole or in part (ms since the epoch). */
  fetchedAt = 0;
  private queue: Promise<void> = Promise.resolve();
  private queued: QueuedRefresh | undefined;

  constructor(private readonly options: CatalogSyncOptions) {}

  get catalog(): Catalog {
    return this.current;
  }

  /**
   * A channel just connected: the full catalog, then the listen stream. Legacy servers often
   * announce changes right after `initialize` (tools registered once the client's capabilities
   * are known): a `ping` round trip first lets those announcements arrive (a server answers in
   * order on stdio and HTTP+SSE), so they join the full fetch instead of each causing another.
   */
  async connected(): Promise<void> {
    const source = this.options.source();
    if (source && announcesChanges(source.info)) void this.enqueue(() => waitForAnnouncements(source.channel));
    await this.refresh(this.options.connectKinds, { emit: false, connect: true });
    await this.listen();
  }

  /**
   * Refetches (all pages) the given parts of the catalog, or all of them. Refreshes run one after
   * another so an older answer never overwrites a newer one, and a change announced before the
   * first full fetch (legacy servers send list_changed right after initialize) waits for it.
   */
  refresh(kinds?: readonly CatalogKind[], options: { emit?: boolean; connect?: boolean } = {}): Promise<void> {
    const waiting = this.queued;
    if (waiting) {
      // It keeps its own `emit`: a connect's silent full fetch reports the whole catalog by other means.
      waiting.kinds = kinds && waiting.kinds ? new Set([...waiting.kinds, ...kinds]) : undefined;
      return waiting.done;
    }
    const refresh: QueuedRefresh = { kinds: kinds ? new Set(kinds) : undefined, emit: options.emit !== false, connect: options.connect === true, done: Promise.resolve() };
    refresh.done = this.enqueue(() => {
      // From here on its requests are being sent: a change announced now needs a refresh of its own.
      if (this.queued === refresh) this.queued = undefined;
      return this.fetch(refresh.kinds ? [...refresh.kinds] : undefined, { emit: refresh.emit, connect: refresh.connect });
    });
    this.queued = refresh;
    return refresh.done;
  }

  /** Of the lists a server announced changed, those this catalog follows (a connect that skipped a list ignores its changes). */
  followed(kinds: readonly CatalogKind[]): readonly CatalogKind[] {
    const connectKinds = this.options.connectKinds;
    return connectKinds ? kinds.filter((kind) => connectKinds.includes(kind)) : kinds;
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined); // the queue only orders: `run`'s failure goes to its caller
    return run;
  }

  private async fetch(kinds: readonly CatalogKind[] | undefined, options: { emit?: boolean; connect?: boolean }): Promise<void> {
    const source = this.options.source();
    if (!source) return;
    const { channel, info } = source;
    const client = channel.client;
    const caps = info.capabilities ?? {};
    const want = (kind: CatalogKind) => !kinds || kinds.includes(kind);
    const opts = { timeout: this.options.timeoutMs, cacheMode: kinds && !options.connect ? ('refresh' as const) : ('use' as const) };
    const [tools, resources, resourceTemplates, prompts] = await Promise.all([
      want('tools') ? (caps.tools ? client.listTools(undefined, opts).then((r) => r.tools) : []) : this.current.tools,
      want('resources') ? (caps.resources ? client.listResources(undefined, opts).then((r) => r.resources) : []) : this.current.resources,
      want('resourceTemplates')
        ? caps.resources
          ? client.listResourceTemplates(undefined, opts).then((r) => r.resourceTemplates, () => [])
          : []
        : this.current.resourceTemplates,
      want('prompts') ? (caps.prompts ? client.listPrompts(undefined, opts).then((r) => r.prompts) : []) : this.current.prompts,
    ]);
    // Answered by a channel that has since been replaced: not this connection's catalog any more.
    if (this.options.source()?.channel !== channel) return;
    const next: Catalog = { tools, resources, resourceTemplates, prompts };
    const changed = diffCatalog(this.current, next);
    this.current = next;
    this.fetchedAt = Date.now();
    if (options.emit !== false && changed.length > 0) this.options.onChange(changed);
  }

  /** Modern servers that announce changes: one `subscriptions/listen` stream, owned by its channel. */
  private async listen(): Promise<void> {
    const source = this.options.source();
    const caps = source?.info.capabilities;
    if (!source || source.info.era !== 'modern' || !caps) return;
    const follows = (kind: CatalogKind) => this.followed([kind]).length > 0;
    const filter = {
      ...(caps.tools?.listChanged && follows('tools') ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged && follows('prompts') ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged && follows('resources') ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    const { channel } = source;
    try {
      const subscription = await channel.client.listen(filter, { timeout: this.options.timeoutMs });
      channel.adopt(subscription);
      void subscription.closed.then((how) => {
        // The stream ended without a response: listen again (a new request id) while we are live.
        if (how === 'remote' && this.options.source()?.channel === channel && this.options.isReady()) {
          void this.listen()
            .then(() => this.refresh())
            .catch((error: unknown) => this.options.log?.('refreshing the lists after the server ended the change stream failed', error));
        }
      });
    } catch (error) {
      // A server that advertises listChanged but refuses listen still works; changes show on reconnect.
      this.options.log?.('subscriptions/listen for list changes failed: changes show on the next connect', error);
    }
  }
}

/** A legacy server that may announce list changes (its capabilities say so). */
function announcesChanges(info: ConnectionInfo): boolean {
  const caps = info.capabilities;
  if (info.era === 'modern' || !caps) return false;
  return Boolean(caps.tools?.listChanged || caps.prompts?.listChanged || caps.resources?.listChanged);
}

/** One round trip: whatever the server sent before answering has arrived. Failure or silence only costs the wait. */
async function waitForAnnouncements(channel: Channel): Promise<void> {
  // A ping that fails or times out only ends the wait: the catalog is read next either way.
  await channel.client.ping({ timeout: ANNOUNCEMENT_WAIT_MS }).catch(() => undefined);
}
