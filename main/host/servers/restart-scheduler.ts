import type { ConnectionState } from '../../../preload/contract';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { RestartPolicy } from './backoff';

/**
 * The restart of a crashed (or failed-to-restart) server: the policy's decision and the one timer
 * that carries it out. A new connect, a stop or disposal cancels what is scheduled.
 */
export class RestartScheduler implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly policy: RestartPolicy,
    private readonly now: () => number,
  ) {
    trackDisposable(this);
  }

  /**
   * Schedules `relaunch` after the policy's delay and returns the `restarting` state to show, or
   * undefined when the streak is exhausted (the server goes to `error`).
   */
  schedule(relaunch: () => void): Extract<ConnectionState, { kind: 'restarting' }> | undefined {
    const next = this.policy.next(this.now());
    if (!next) return undefined;
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      relaunch();
    }, next.delayMs);
    this.timer.unref?.();
    return { kind: 'restarting', attempt: next.attempt, maxAttempts: this.policy.maxAttempts, nextAt: next.nextAt };
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.cancel();
    markAsDisposed(this);
  }
}
