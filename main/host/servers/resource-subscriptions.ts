import type { McpSubscription } from '@modelcontextprotocol/client';
import type { CatalogSource } from './catalog-sync';

export interface ResourceSubscriptionsOptions {
  /** The connected channel, or undefined while nothing is connected (the set is applied on connect). */
  readonly source: () => CatalogSource | undefined;
  readonly timeoutMs: number;
  /** Whether the connection is ready: a listen stream that ends is reopened only then. */
  readonly isReady: () => boolean;
  /** Where a failure no caller awaits is said, with what was being done (Harbor's log). */
  readonly log?: (message: string, error: unknown) => void;
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
    return this.run(`subscribing to ${uri}`, async (source) => {
      if (source.info.era === 'modern') await this.relisten(source);
      else await source.channel.client.subscribeResource({ uri }, { timeout: this.options.timeoutMs });
    });
  }

  /** Unsubscribes from `uri`; a server that fails to hear it is not retried (updates for it are then ignored, and the failure is logged). */
  remove(uri: string): Promise<void> {
    if (!this.uris.delete(uri)) return this.queue;
    return this.run(`unsubscribing from ${uri}`, async (source) => {
      if (source.info.era === 'modern') await this.relisten(source);
      // Its updates are ignored from now on (has() is false), so the person loses nothing: logged, not thrown.
      else await source.channel.client.unsubscribeResource({ uri }, { timeout: this.options.timeoutMs }).catch((error: unknown) => this.options.log?.(`unsubscribing from ${uri} failed`, error));
    });
  }

  /** Whether a `resources/updated` for `uri` is one the person asked for. */
  has(uri: string): boolean {
    return this.uris.has(uri);
  }

  /** A channel just connected: every subscription again, on it. */
  connected(): Promise<void> {
    this.stream = undefined;
    return this.run('resubscribing after connecting', async (source) => {
      if (this.uris.size === 0) return;
      if (source.info.era === 'modern') await this.relisten(source);
      else {
        // One URI the server refuses does not keep the others from being subscribed; each is said.
        const each = [...this.uris].map((uri) =>
          source.channel.client.subscribeResource({ uri }, { timeout: this.options.timeoutMs }).catch((error: unknown) => this.options.log?.(`resubscribing to ${uri} after connecting failed`, error)),
        );
        await Promise.all(each);
      }
    });
  }

  /**
   * Runs `apply` on the connected server that offers subscriptions, in order with every other
   * change. A failure is logged with `what` was being done and rejects the returned promise.
   */
  private run(what: string, apply: (source: CatalogSource) => Promise<void>): Promise<void> {
    const step = this.queue.then(async () => {
      const source = this.options.source();
      if (!source || source.info.capabilities?.resources?.subscribe !== true) return;
      try {
        await apply(source);
      } catch (error) {
        this.options.log?.(`${what} failed`, error);
        throw error;
      }
    });
    this.queue = step.catch(() => undefined); // the queue only orders: `step`'s failure is logged above and returned to the caller
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
          void this.run('listening again after the server ended the subscription stream', (current) => this.relisten(current)).catch(() => undefined); // logged by run()
        }
      });
    }
    // The new stream stands: an old one that fails to close ends with its channel at the latest.
    if (previous && previous.channel === source.channel) await previous.subscription.close().catch(() => undefined);
  }
}
