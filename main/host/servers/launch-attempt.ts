import type { Client } from '@modelcontextprotocol/client';
import type { HarborError } from '../errors';
import { DisposableStore, markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { CatalogKind } from './catalog';
import { Channel } from './channel';
import type { ConnectionDeps, ConnectionInfo, OpenedTransport } from './connection-types';
import { fallbackPlan, findingToKeep, planFromCache, type EraPlan } from './era-negotiation';
import { TransportsFailedError, toHarborError } from './connection-failures';
import { launchHash, type LaunchSpec } from './launch';
import { isDroppedResponseStream } from './sdk-error-text';
import { ConnectSignIns } from './sign-in';
import type { TransportAuth } from './transport-auth';

/** What an attempt tells its connection; never called once the attempt is disposed. */
export interface AttemptEvents {
  /**
   * The channel is connected and the server's info known: read the catalog, start listening. A
   * sign-in needed here (the first list) reopens on a new transport, like one needed to connect.
   */
  opened(attempt: LaunchAttempt): Promise<void>;
  /** The open transport closed without Harbor asking: a crash, or a dropped remote. */
  lost(attempt: LaunchAttempt): void;
  /** A remote's response stream broke under its pending requests (which the SDK would leave waiting). */
  responseStreamDropped(attempt: LaunchAttempt, message: string): void;
  listChanged(attempt: LaunchAttempt, kinds: readonly CatalogKind[]): void;
  resourceUpdated(attempt: LaunchAttempt, uri: string): void;
}

function httpTransportName(plan: EraPlan): string {
  return plan.legacySse ? 'HTTP+SSE' : 'Streamable HTTP';
}

/** Thrown inside an attempt that was disposed while it ran; its connection has moved on. */
class AttemptDisposed extends Error {
  constructor() {
    super('The launch attempt was disposed');
  }
}

/**
 * One launch of a server, owned as one disposable (after VS Code's `adoptLaunch`): the launch
 * consent and secrets, the era verdict it starts from and the one it learns, the transport and
 * client — opened again within the attempt for an era fallback (legacy, HTTP+SSE) or after a
 * sign-in — and the listen streams. `dispose()` ends all of them, and from its first moment
 * nothing of the attempt reaches the connection any more: a late callback changes no state.
 */
export class LaunchAttempt implements Disposable {
  private readonly store = new DisposableStore();
  private channel: Channel | undefined;
  /** Kept after close: the last transport's stderr tail and exit status explain a failure. */
  private lastOpened: OpenedTransport | undefined;
  private described: ConnectionInfo | undefined;

  constructor(
    readonly server: string,
    private readonly spec: LaunchSpec,
    private readonly deps: ConnectionDeps,
    private readonly events: AttemptEvents,
  ) {
    trackDisposable(this);
  }

  get isDisposed(): boolean {
    return this.store.isDisposed;
  }

  /** The connected channel and the server's info, from connect until disposal. */
  get connected(): { readonly channel: Channel; readonly info: ConnectionInfo } | undefined {
    if (this.isDisposed || !this.channel || !this.described) return undefined;
    return { channel: this.channel, info: this.described };
  }

  get client(): Client | undefined {
    return this.connected?.channel.client;
  }

  get auth(): TransportAuth | undefined {
    return this.isDisposed ? undefined : this.channel?.auth;
  }

  /** For status lines: the server's recent stderr while the attempt lives. */
  stderrTail(): string {
    return this.isDisposed ? '' : (this.channel?.opened.stderrTail() ?? '');
  }

  /** A failure as a HarborError with the server's stderr tail and how its process ended. */
  /** How the last process ended, once it has: "exited with code 3", "killed by SIGKILL". */
  exitDescription(): string | undefined {
    return this.lastOpened?.exitDescription();
  }

  describeFailure(error: unknown, action: string, userAborted = false): HarborError {
    const stderrTail = this.lastOpened?.stderrTail();
    const exit = this.lastOpened?.exitDescription();
    const strayOutput = this.lastOpened?.strayOutput?.();
    return toHarborError(error, {
      server: this.server,
      action,
      ...(stderrTail ? { stderrTail } : {}),
      ...(exit ? { exit } : {}),
      ...(strayOutput !== undefined ? { strayOutput } : {}),
      userAborted,
    });
  }

  /**
   * Launches: consent, secrets, a connected channel (with the era fallbacks), then `opened`.
   * Resolves when connected; throws the failure. A disposed attempt's outcome is meaningless:
   * the caller checks `isDisposed` first.
   */
  async run(signInBudget: number): Promise<void> {
    const configHash = launchHash(this.spec);
    const plan = await planFromCache(this.deps.eraCache, this.server, configHash, this.spec);
    this.throwIfDisposed();
    await this.deps.authorizeLaunch?.(this.spec);
    this.throwIfDisposed();
    // Secret values exist only in this local spec and the transport: `this.spec` keeps the references.
    const spec = this.deps.prepareLaunch ? await this.deps.prepareLaunch(this.spec) : this.spec;
    // OAuth: wherever establishing the connection runs into a sign-in (the probe, the first
    // list), it is finished here and everything runs again on a NEW transport.
    const signIns = new ConnectSignIns(this.server, signInBudget);
    for (;;) {
      this.throwIfDisposed();
      try {
        await this.negotiate(plan, spec, configHash, signIns);
        await this.events.opened(this);
        return;
      } catch (error) {
        this.throwIfDisposed();
        await signIns.signInOrThrow(this.channel?.auth, error);
        await this.closeChannel();
      }
    }
  }

  /**
   * Opens a channel under `initial`, or under the one fallback its failure calls for; keeps what
   * it learned about the era. An authorization failure keeps its transport open: the sign-in it
   * started is redeemed on it.
   */
  private async negotiate(initial: EraPlan, spec: LaunchSpec, configHash: string, signIns: ConnectSignIns): Promise<void> {
    let plan = initial;
    try {
      await this.open(plan, spec, signIns.allowed);
    } catch (error) {
      this.throwIfDisposed();
      if (this.channel?.auth?.authFailure(error)) throw error;
      await this.closeChannel();
      const fallback = fallbackPlan(error, plan, this.spec);
      if (!fallback) throw error;
      if (fallback.forgetEra) await this.deps.eraCache.forget(this.server);
      try {
        await this.open(fallback, spec, signIns.allowed);
      } catch (second) {
        this.throwIfDisposed();
        // A remote that fails both ways is told both ways: the fallback's error alone ("SSE error:
        // 404") hides that Streamable HTTP, the transport it was configured for, failed first.
        if (spec.transport !== 'http' || this.channel?.auth?.authFailure(second)) throw second;
        throw new TransportsFailedError([
          { transport: httpTransportName(plan), error },
          { transport: `${httpTransportName(fallback)} fallback`, error: second },
        ]);
      }
      plan = fallback;
    }
    this.throwIfDisposed();
    const channel = this.channel!;
    const finding = findingToKeep(plan, this.spec, channel);
    if (finding) await this.deps.eraCache.set(this.server, configHash, finding);
    this.described = channel.describe();
  }

  private async open(plan: EraPlan, spec: LaunchSpec, signInAllowed: boolean): Promise<void> {
    this.throwIfDisposed();
    const channel: Channel = this.store.add(
      new Channel({
        server: this.server,
        spec,
        legacySse: plan.legacySse,
        deps: this.deps,
        events: {
          listChanged: (kinds) => this.whileCurrent(channel, () => this.events.listChanged(this, kinds)),
          resourceUpdated: (uri) => this.whileCurrent(channel, () => this.events.resourceUpdated(this, uri)),
          closed: () => this.whileCurrent(channel, () => this.events.lost(this)),
          transportError: (error) => {
            if (spec.transport === 'http' && isDroppedResponseStream(error)) this.whileCurrent(channel, () => this.events.responseStreamDropped(this, error.message));
          },
        },
      }),
    );
    this.channel = channel;
    this.lastOpened = channel.opened;
    channel.auth?.allowSignIn(signInAllowed);
    await channel.connect(plan.prior);
  }

  private whileCurrent(channel: Channel, report: () => void): void {
    if (!this.isDisposed && this.channel === channel) report();
  }

  private async closeChannel(): Promise<void> {
    const channel = this.channel;
    this.channel = undefined;
    this.described = undefined;
    if (!channel) return;
    this.store.delete(channel);
    await channel.dispose();
  }

  private throwIfDisposed(): void {
    if (this.isDisposed) throw new AttemptDisposed();
  }

  /** Ends the channel (listen streams, client, transport and process); idempotent. */
  dispose(): Promise<void> {
    if (!this.isDisposed) markAsDisposed(this);
    return this.store.dispose();
  }
}
