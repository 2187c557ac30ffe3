import type { HarborApi } from '../../../../preload/contract';
import { describeLog, describeSampling } from './describe-capability-events';
import { describeChange } from './describe-change';

export interface ActivityEntry {
  readonly id: number;
  readonly at: Date;
  readonly server: string;
  /** What happened, as a sentence following the server's name. */
  readonly text: string;
}

/**
 * What the Host reported since this window opened, newest first, kept app-wide so nothing is
 * missed while another page is shown: server changes, servers' log messages and how each
 * sampling request ended. The per-message traffic log arrives with the host core.
 */
export class ActivityLog {
  private entries: readonly ActivityEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  constructor(api: HarborApi, private readonly limit = 200) {
    api.on.servers.changed((payload) => this.add(payload.name, describeChange(payload)));
    api.on.servers.log((entry) => this.add(entry.server, describeLog(entry)));
    api.on.sampling.exchange((exchange) => this.add(exchange.server, describeSampling(exchange)));
  }

  snapshot = (): readonly ActivityEntry[] => this.entries;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private add(server: string, text: string): void {
    const entry: ActivityEntry = { id: this.nextId++, at: new Date(), server, text };
    this.entries = [entry, ...this.entries].slice(0, this.limit);
    for (const listener of [...this.listeners]) listener();
  }
}
