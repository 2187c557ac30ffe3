import type { ConnectionState, LaunchFailureData } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { RingLog, type RingLimits } from '../ring-log';

/** At most 100 failures, and 1 MB of them (a stderr tail may be long). */
export const LAUNCH_FAILURE_LIMITS: RingLimits = { maxEntries: 100, maxBytes: 1024 * 1024 };

type ErrorState = Extract<ConnectionState, { kind: 'error' }>;

/**
 * The servers that could not be started, kept (bounded, oldest dropped first) so a window opened
 * after the failure still lists it, and announced as `servers.launchFailed` when they happen.
 */
export class LaunchFailures {
  private readonly entries: RingLog<LaunchFailureData>;
  private seq = 0;

  constructor(
    private readonly events: HostEvents,
    capacity = LAUNCH_FAILURE_LIMITS.maxEntries,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new RingLog({ ...LAUNCH_FAILURE_LIMITS, maxEntries: capacity }, (f) => 64 + f.name.length + f.message.length + f.stderrTail.length);
  }

  record(name: string, state: ErrorState): void {
    const failure: LaunchFailureData = { seq: ++this.seq, at: this.now(), name, code: state.code, message: state.message, stderrTail: state.stderrTail };
    this.entries.push(failure);
    this.events.emit('servers.launchFailed', failure);
  }

  /** Oldest first, as plain copies. */
  list(): LaunchFailureData[] {
    return this.entries.toArray().map((entry) => ({ ...entry }));
  }
}
