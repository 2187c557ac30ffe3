import type { McpSubscription } from '@modelcontextprotocol/client';
import type { CatalogSource } from './catalog-sync';

export interface ResourceSubscriptionsOptions {
  /** The connected channel, or undefined while nothing is connected (the set is applied on connect). */
  readonly source: () => CatalogSource | undefined;
  readonly timeoutMs: number;
  /** Whether the connection is ready: a listen stream that ends is reopened only then. */
  readonly isReady: () => boolean;
}

/**
 * The resources the person subscribed to on one server, kept across reconnects: legacy servers get
 * `resources/subscribe` / `resources/unsubscribe` per URI; modern ones one `subscriptions/listen`
 * stream naming every URI, opened anew (then the old one closed) whenever the set changes. Updates
 * arrive as `notifications/resources/updated` through the channel either way.
 */
export class ResourceSubscriptions {
  private readonly uris = new Set<string>();
  private stream: { readonly subscription: McpSubscription; readonly channel: CatalogSource['channel'] } | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: ResourceSubscriptionsOptions) {}

  /** Whether the connected server offers subscriptions (undefined while it is not connected). */
  supported(): boolean | undefined {
    const source = this.options.source();
    return source ? source.info.capabilities?.resources?.subscribe === true : undefined;
  }

  list(): string[] {
    return [...this.uris];
  }

  /** Subscribes to `uri` (now if connected, else on connect). Resolves once the server has it. */
  add(uri: string): Promise<void> {
    if (this.uris.has(uri)) return this.queue;
    this.uris.add(uri);
    return this.run(async (source) => {
      if (source.info.era === 'modern') await this.relisten(source);
      else await source.channel.client.subscribeResource({ uri }, { timeout: this.options.timeoutMs });
    });
  }

  /** Unsubscribes from `uri`; a server that fails to hear it is not retried (updates for it are then ignored). */
  remove(uri: string): Promise<void> {
    if (!this.uris.delete(uri)) return this.queue;
    return this.run(async (source) => {
      if (source.info.era === 'modern') await this.relisten(source);
      else await source.channel.client.unsubscribeResource({ uri }, { timeout: this.options.timeoutMs }).catch(() => undefined);
    });
  }

  /** Whether a `resources/updated` for `uri` is one the person asked for. */
  has(uri: string): boolean {
    return this.uris.has(uri);
  }

  /** A channel just connected: every subscription again, on it. */
  connected(): Promise<void> {
    this.stream = undefined;
    return this.run(async (source) => {
      if (this.uris.size === 0) return;
      if (source.info.era === 'modern') await this.relisten(source);
      else await Promise.all([...this.uris].map((uri) => source.channel.client.subscribeResource({ uri }, { timeout: this.options.timeoutMs }).catch(() => undefined)));
    });
  }

  /** Runs `apply` on the connected server that offers subscriptions, in order with every other change. */
  private run(apply: (source: CatalogSource) => Promise<void>): Promise<void> {
    const step = this.queue.then(async () => {
      const source = this.options.source();
      if (!source || source.info.capabilities?.resources?.subscribe !== true) return;
      await apply(source);
    });
    this.queue = step.catch(() => undefined);
    return step;
  }

  /** Modern: one listen stream naming every subscribed URI; the previous one closes once the new one stands. */
  private async relisten(source: CatalogSource): Promise<void> {
    const previous = this.stream;
    this.stream = undefined;
    if (this.uris.size > 0) {
      const { channel } = source;
      const subscription = await channel.client.listen({ resourceSubscriptions: [...this.uris] }, { timeout: this.options.timeoutMs });
      channel.adopt(subscription);
      const stream = { subscription, channel };
      this.stream = stream;
      void subscription.closed.then((how) => {
        // The server ended it: listen again while this stream is still the one that counts.
        if (how === 'remote' && this.stream === stream && this.options.source()?.channel === channel && this.options.isReady()) {
          this.stream = undefined;
          void this.run((current) => this.relisten(current)).catch(() => undefined);
        }
      });
    }
    if (previous && previous.channel === source.channel) await previous.subscription.close().catch(() => undefined);
  }
}
