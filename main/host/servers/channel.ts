import type { Client, McpSubscription, PriorDiscovery } from '@modelcontextprotocol/client';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { CatalogKind } from './catalog';
import type { ServerFeatures } from './client-features';
import { createMcpClient } from './client-factory';
import type { ConnectionDeps, ConnectionInfo, OpenedTransport } from './connection-types';
import { ProbeInterruptedError, StrayOutputError } from './connection-failures';
import type { LaunchSpec } from './launch';
import { carryLogLevel } from './log-level';
import { ProbeOutcome } from './probe-outcome';
import { deliverProgressFirst } from './progress-order';
import { scopeTransport } from './request-scope';
import { tapTransport } from './tap';
import { TaskWire } from './task-wire/wire';
import type { TransportAuth } from './transport-auth';

const LIST_CHANGED = {
  'notifications/tools/list_changed': ['tools'],
  'notifications/prompts/list_changed': ['prompts'],
  'notifications/resources/list_changed': ['resources', 'resourceTemplates'],
} as const satisfies Record<string, readonly CatalogKind[]>;

/** How long closing waits for the server to confirm the end of a Streamable HTTP session. */
const SESSION_END_WAIT_MS = 2_000;

/** What a channel reports to its attempt; never called once the channel is disposed. */
export interface ChannelEvents {
  listChanged(kinds: readonly CatalogKind[]): void;
  resourceUpdated(uri: string): void;
  /** The transport closed without Harbor asking, after the connect had succeeded. */
  closed(): void;
  transportError(error: Error): void;
}

export interface ChannelOptions {
  readonly server: string;
  /** The spec as launched (secrets resolved): it lives only here and in the transport. */
  readonly spec: LaunchSpec;
  readonly legacySse: boolean;
  readonly deps: Pick<ConnectionDeps, 'clientInfo' | 'traffic' | 'openTransport' | 'elicit' | 'pageDone' | 'probeTimeoutMs' | 'connectTimeoutMs' | 'features' | 'outputValidator'>;
  readonly events: ChannelEvents;
}

/**
 * One transport and the MCP client on it: what an attempt opens, and opens again for an era
 * fallback or after a sign-in. Every message is recorded in the traffic log and watched for the
 * era probe's outcome; `dispose()` closes the listen streams, the client and the transport.
 */
export class Channel implements Disposable {
  readonly opened: OpenedTransport;
  readonly client: Client;
  /** How the era probe went on the wire (watched until connect returns). */
  readonly probe = new ProbeOutcome();
  /** Tasks on this channel, below the SDK (task-wire/). */
  readonly tasks = new TaskWire({ adopt: (subscription) => this.adopt(subscription) });
  private watchingProbe = true;
  private readonly subscriptions = new Set<McpSubscription>();
  private disposed = false;

  constructor(private readonly options: ChannelOptions) {
    trackDisposable(this);
    const { deps, server, spec, events } = options;
    this.opened = deps.openTransport(spec, { legacySse: options.legacySse, server });
    this.client = createMcpClient({
      clientInfo: deps.clientInfo,
      // On stdio a silent probe means legacy, so a short wait is right; on HTTP silence is an
      // outage (the SDK fails instead of falling back), so the probe gets the connect timeout.
      probeTimeoutMs: spec.transport === 'stdio' ? deps.probeTimeoutMs : deps.connectTimeoutMs,
      elicit: deps.elicit,
      ...(deps.outputValidator ? { outputValidator: deps.outputValidator } : {}),
      // A late log line of a channel already replaced is not this server's any more.
      ...(deps.features ? { features: quietOnceDisposed(deps.features, () => this.disposed) } : {}),
    });
    for (const [method, kinds] of Object.entries(LIST_CHANGED)) {
      this.client.setNotificationHandler(method as keyof typeof LIST_CHANGED, () => {
        if (!this.disposed) events.listChanged(kinds);
      });
    }
    this.client.setNotificationHandler('notifications/resources/updated', (notification) => {
      if (!this.disposed) events.resourceUpdated(notification.params.uri);
    });
    this.client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      if (!this.disposed) deps.pageDone?.(notification.params.elicitationId);
    });
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  get auth(): TransportAuth | undefined {
    return this.opened.auth;
  }

  /**
   * Connects the client (negotiating the era unless `prior` settles it). A stdio process that
   * ended while the probe was unanswered fails with ProbeInterruptedError, whatever the SDK said.
   */
  async connect(prior: PriorDiscovery | undefined): Promise<void> {
    const { deps, server, events } = this.options;
    const tapped = tapTransport(this.opened.transport, (direction, message) => {
      deps.traffic.record(server, direction, message);
      if (this.watchingProbe) this.probe.observe(direction, message);
    });
    // Progress before its result (deliverProgressFirst), then each response handled in the scope of
    // the request it answers (Streamable HTTP relates a server's request to the POST it answers;
    // stdio and SSE cannot), and task results handed to the request that made the task.
    const scoped = scopeTransport(deliverProgressFirst(tapped), { linkedOnWire: this.options.spec.transport !== 'stdio' && !this.options.legacySse });
    // Modern requests carry the log level the person chose (log-level.ts).
    const transport = this.tasks.wrap(carryLogLevel(scoped, () => deps.features?.logLevel()));
    try {
      await this.client.connect(transport, { timeout: deps.connectTimeoutMs, ...(prior ? { prior } : {}) });
    } catch (error) {
      if (this.opened.closedForStrayOutput?.()) throw new StrayOutputError(this.opened.strayOutput?.() ?? '', { cause: error });
      if (this.opened.probeInterrupted?.()) throw new ProbeInterruptedError(server, { cause: error });
      throw error;
    } finally {
      this.watchingProbe = false;
    }
    // From here on an unexpected close is a crash (or a dropped remote).
    this.client.onclose = () => {
      if (!this.disposed) events.closed();
    };
    transport.onerror = (error: Error) => {
      if (!this.disposed) events.transportError(error);
    };
  }

  /** What the server said about itself during connect. */
  describe(): ConnectionInfo {
    const client = this.client;
    const serverInfo = client.getServerVersion();
    const instructions = client.getInstructions();
    const capabilities = client.getServerCapabilities();
    const protocolVersion = client.getNegotiatedProtocolVersion();
    return {
      era: client.getProtocolEra() ?? 'legacy',
      ...(protocolVersion ? { protocolVersion } : {}),
      ...(serverInfo ? { serverInfo: { name: serverInfo.name, version: serverInfo.version } } : {}),
      ...(instructions ? { instructions } : {}),
      ...(capabilities ? { capabilities } : {}),
    };
  }

  /** A `subscriptions/listen` stream on this client: it ends with the channel. */
  adopt(subscription: McpSubscription): void {
    if (this.disposed) {
      void subscription.close().catch(() => undefined); // the channel is gone: the stream ends with its transport anyway
      return;
    }
    this.subscriptions.add(subscription);
    void subscription.closed.then(() => this.subscriptions.delete(subscription));
  }

  /**
   * A legacy Streamable HTTP session is ended explicitly (HTTP DELETE), as the spec asks of a
   * client that leaves: otherwise the server keeps every session Harbor ever opened. A server
   * that does not answer in time does not hold up the stop; closing the client aborts the request.
   */
  private async endSession(): Promise<void> {
    const ending = this.opened.endSession?.();
    if (!ending) return;
    let timer: NodeJS.Timeout | undefined;
    // Ending the session is a courtesy to the server (DELETE): one that refuses or is gone changes nothing here.
    await Promise.race([ending.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, SESSION_END_WAIT_MS)))]);
    clearTimeout(timer);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    this.client.onclose = undefined;
    for (const subscription of [...this.subscriptions]) await subscription.close().catch(() => undefined); // closing: the transport ends them anyway
    this.subscriptions.clear();
    await this.endSession();
    this.tasks.dispose();
    await this.client.close().catch(() => undefined); // closing what may already be closed: the transport is closed next regardless
    // The client closes its transport; closing again makes sure a half-open one (failed connect) ends too.
    await this.opened.transport.close().catch(() => undefined);
  }
}

/** The server's features, except that a log line arriving after the channel was disposed is dropped. */
function quietOnceDisposed(features: ServerFeatures, disposed: () => boolean): ServerFeatures {
  return {
    declared: () => features.declared(),
    listRoots: () => features.listRoots(),
    sample: (params, context) => features.sample(params, context),
    logLevel: () => features.logLevel(),
    logged: (message) => {
      if (!disposed()) features.logged(message);
    },
  };
}
