import type { HarborApi, ServerEventData } from '../../../../preload/contract';
import { describeChange } from './describe-change';

export interface ActivityEntry {
  /** The Host's sequence number for the event. */
  readonly id: number;
  readonly at: Date;
  readonly server: string;
  /** What happened, as a sentence following the server's name. */
  readonly text: string;
}

/**
 * Server events (starts, stops, errors, catalog changes), newest first, kept app-wide. The Host
 * keeps the recent ones (serverEvents.list), so a reloaded window still shows what happened
 * before it opened: the history is loaded when someone first looks, and merged by sequence number
 * with the live `serverEvents.entry` events, which are followed from the start.
 */
export class ActivityLog {
  private entries: readonly ActivityEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private historyAsked = false;

  constructor(
    private readonly api: HarborApi,
    private readonly limit = 200,
  ) {
    api.on.serverEvents.entry((entry) => this.merge([entry]));
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
    const result = await this.api.serverEvents.list({});
    // Without the history the live events still show: the list is a convenience, not a failure.
    if (result.ok) this.merge(result.value);
  }

  private merge(events: readonly ServerEventData[]): void {
    const known = new Set(this.entries.map((entry) => entry.id));
    const fresh = events.filter((event) => !known.has(event.seq)).map(toEntry);
    if (fresh.length === 0) return;
    this.entries = [...fresh, ...this.entries].sort((a, b) => b.id - a.id).slice(0, this.limit);
    for (const listener of [...this.listeners]) listener();
  }
}

function toEntry({ seq, at, event }: ServerEventData): ActivityEntry {
  return { id: seq, at: new Date(at), server: event.name, text: describeChange(event) };
}
