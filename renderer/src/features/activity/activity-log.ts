import type { HarborApi, LaunchFailureData } from '../../../../preload/contract';
import { describeChange, describeFailure } from './describe-change';

export interface ActivityEntry {
  readonly id: number;
  readonly at: Date;
  readonly server: string;
  /** What happened, as a sentence following the server's name. */
  readonly text: string;
}

/**
 * What the Host reported since this window opened, newest first, kept app-wide so nothing is
 * missed while another page is shown. The per-message traffic log arrives with the host core.
 */
export class ActivityLog {
  private entries: readonly ActivityEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  /** Launch failures already listed, by the Host's sequence number (the list and the live event may both bring one). */
  private readonly failuresSeen = new Set<number>();

  constructor(api: HarborApi, private readonly limit = 200) {
    api.on.servers.changed((payload) => {
      // A failed start is listed from servers.launchFailed, which the Host keeps for later windows too.
      if (payload.reason === 'state' && payload.summary?.state.kind === 'error') return;
      this.add({
        id: this.nextId++,
        at: new Date(),
        server: payload.name,
        text: describeChange(payload),
      });
    });
    api.on.servers.launchFailed((failure) => this.addFailure(failure));
    // Failures from before this window opened (a server that failed at startup): fetched once someone looks.
    this.fetchEarlierFailures = () => {
      this.fetchEarlierFailures = undefined;
      void api.servers.launchFailures({}).then((result) => {
        if (result.ok) for (const failure of result.value) this.addFailure(failure);
      });
    };
  }

  private fetchEarlierFailures: (() => void) | undefined;

  private addFailure(failure: LaunchFailureData): void {
    if (this.failuresSeen.has(failure.seq)) return;
    this.failuresSeen.add(failure.seq);
    const entry = { id: this.nextId++, at: new Date(failure.at), server: failure.name, text: describeFailure(failure) };
    // Listed in time order: one fetched late goes where it happened.
    this.entries = [...this.entries, entry].sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, this.limit);
    for (const listener of [...this.listeners]) listener();
  }

  snapshot = (): readonly ActivityEntry[] => this.entries;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    this.fetchEarlierFailures?.();
    return () => this.listeners.delete(listener);
  };

  private add(entry: ActivityEntry): void {
    this.entries = [entry, ...this.entries].slice(0, this.limit);
    for (const listener of [...this.listeners]) listener();
  }
}
