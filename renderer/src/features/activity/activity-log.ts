import type { HarborApi, LaunchFailureData, ServerEventData } from '../../../../preload/contract';
import { describeLog, describeSampling } from './describe-capability-events';
import { describeChange, describeFailure } from './describe-change';

export interface ActivityEntry {
  /** Unique in the log: which Host list it came from, and its sequence number there. */
  readonly id: string;
  readonly at: Date;
  readonly server: string;
  /** What happened, as a sentence following the server's name. */
  readonly text: string;
}

/**
 * Server events (starts, stops, catalog changes, failed launches, log messages, how each sampling
 * request ended), newest first, kept app-wide. The Host keeps the recent changes and failures
 * (serverEvents.list, servers.launchFailures), so a reloaded window still shows them: that history
 * is loaded when someone first looks, and merged by sequence number with the live events,
 * followed from the start. Log messages and sampling are listed from this window's start.
 */
export class ActivityLog {
  private entries: readonly ActivityEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private historyAsked = false;
  /** Numbers the entries only this window sees (log messages, sampling). */
  private nextLocal = 1;

  constructor(
    private readonly api: HarborApi,
    private readonly limit = 200,
  ) {
    api.on.serverEvents.entry((entry) => this.merge(changes([entry])));
    api.on.servers.launchFailed((failure) => this.merge(failures([failure])));
    api.on.servers.log((entry) => this.merge([this.local(entry.server, describeLog(entry))]));
    api.on.sampling.exchange((exchange) => this.merge([this.local(exchange.server, describeSampling(exchange))]));
  }

  snapshot = (): readonly ActivityEntry[] => this.entries;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (!this.historyAsked) {
      this.historyAsked = true;
      void this.loadHistory();
    }
    return () => this.listeners.delete(listener);
  };

  private async loadHistory(): Promise<void> {
    const [events, launchFailures] = await Promise.all([this.api.serverEvents.list({}), this.api.servers.launchFailures({})]);
    // Without the history the live events still show: the lists are a convenience, not a failure.
    this.merge([...(events.ok ? changes(events.value) : []), ...(launchFailures.ok ? failures(launchFailures.value) : [])]);
  }

  private local(server: string, text: string): ActivityEntry {
    return { id: `local-${this.nextLocal++}`, at: new Date(), server, text };
  }

  private merge(incoming: readonly ActivityEntry[]): void {
    const known = new Set(this.entries.map((entry) => entry.id));
    const fresh = incoming.filter((entry) => !known.has(entry.id));
    if (fresh.length === 0) return;
    // In time order: one fetched late goes where it happened.
    this.entries = [...fresh, ...this.entries].sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, this.limit);
    for (const listener of [...this.listeners]) listener();
  }
}

function changes(events: readonly ServerEventData[]): ActivityEntry[] {
  // A failed start is listed from the launch failures, which say why.
  return events
    .filter(({ event }) => !(event.reason === 'state' && event.summary?.state.kind === 'error'))
    .map(({ seq, at, event }) => ({ id: `change-${seq}`, at: new Date(at), server: event.name, text: describeChange(event) }));
}

function failures(list: readonly LaunchFailureData[]): ActivityEntry[] {
  return list.map((failure) => ({ id: `failure-${failure.seq}`, at: new Date(failure.at), server: failure.name, text: describeFailure(failure) }));
}
