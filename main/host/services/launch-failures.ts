import type { ConnectionState, LaunchFailureData } from '../../../preload/contract';
import type { HostEvents } from '../events';

type ErrorState = Extract<ConnectionState, { kind: 'error' }>;

/**
 * The servers that could not be started, kept (bounded, oldest dropped first) so a window opened
 * after the failure still lists it, and announced as `servers.launchFailed` when they happen.
 */
export class LaunchFailures {
  private readonly entries: LaunchFailureData[] = [];
  private seq = 0;

  constructor(
    private readonly events: HostEvents,
    private readonly capacity = 100,
    private readonly now: () => number = Date.now,
  ) {}

  record(name: string, state: ErrorState): void {
    const failure: LaunchFailureData = { seq: ++this.seq, at: this.now(), name, code: state.code, message: state.message, stderrTail: state.stderrTail };
    this.entries.push(failure);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    this.events.emit('servers.launchFailed', failure);
  }

  /** Oldest first, as plain copies. */
  list(): LaunchFailureData[] {
    return this.entries.map((entry) => ({ ...entry }));
  }
}
