import type { HarborApi } from '../../../../preload/contract';
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
 * missed while another page is shown. The per-message traffic log arrives with the host core.
 */
export class ActivityLog {
  private entries: readonly ActivityEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  constructor(api: HarborApi, private readonly limit = 200) {
    api.on.servers.changed((payload) => {
      this.add({
        id: this.nextId++,
        at: new Date(),
        server: payload.name,
        text: describeChange(payload),
      });
    });
  }

  snapshot = (): readonly ActivityEntry[] => this.entries;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private add(entry: ActivityEntry): void {
    this.entries = [entry, ...this.entries].slice(0, this.limit);
    for (const listener of [...this.listeners]) listener();
  }
}
