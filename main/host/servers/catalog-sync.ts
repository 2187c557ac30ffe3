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
}

/**
 * One server's catalog (tools, resources, templates, prompts), kept fresh: full fetches on
 * connect, partial refetches on `list_changed` (legacy) or on the modern `subscriptions/listen`
 * stream, which is reopened when the server ends it. The catalog outlives connections: a
 * stopped server still shows what it offered.
 */
export class CatalogSync {
  private current: Catalog = EMPTY_CATALOG;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: CatalogSyncOptions) {}

  get catalog(): Catalog {
    return this.current;
  }

  /**
   * A channel just connected: the full catalog, then the listen stream. Changes announced before
   * this point (legacy servers send list_changed right after initialize) are covered: this full
   * fetch is queued behind them and runs last.
   */
  async connected(): Promise<void> {
    await this.refresh(undefined, { emit: false });
    await this.listen();
  }

  /**
   * Refetches (all pages) the given parts of the catalog, or all of them. Refreshes run one after
   * another so an older answer never overwrites a newer one, and a change announced before the
   * first full fetch (legacy servers send list_changed right after initialize) waits for it.
   */
  refresh(kinds?: readonly CatalogKind[], options: { emit?: boolean } = {}): Promise<void> {
    const run = this.queue.then(() => this.fetch(kinds, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async fetch(kinds: readonly CatalogKind[] | undefined, options: { emit?: boolean }): Promise<void> {
    const source = this.options.source();
    if (!source) return;
    const { channel, info } = source;
    const client = channel.client;
    const caps = info.capabilities ?? {};
    const want = (kind: CatalogKind) => !kinds || kinds.includes(kind);
    const opts = { timeout: this.options.timeoutMs, cacheMode: kinds ? ('refresh' as const) : ('use' as const) };
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
    if (options.emit !== false && changed.length > 0) this.options.onChange(changed);
  }

  /** Modern servers that announce changes: one `subscriptions/listen` stream, owned by its channel. */
  private async listen(): Promise<void> {
    const source = this.options.source();
    const caps = source?.info.capabilities;
    if (!source || source.info.era !== 'modern' || !caps) return;
    const filter = {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
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
            .catch(() => undefined);
        }
      });
    } catch {
      // A server that advertises listChanged but refuses listen still works; changes show on reconnect.
    }
  }
}
