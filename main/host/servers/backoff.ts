/**
 * When to restart a server that exited unexpectedly: capped exponential backoff with a little
 * jitter (so ten servers that crash together do not restart in lockstep), a bounded number of
 * tries, and a reset once a run has proven itself stable. Pure: time comes in as `now`, chance
 * as `random`, so every decision is unit-testable.
 *
 * A crash at startup (before the server ever became ready) counts like any other and is always
 * delayed by at least `baseMs`: a server that dies at once is never restarted in a hot loop.
 */
export interface RestartPolicyOptions {
  /** Delay before the first restart. */
  baseMs?: number;
  /** Upper bound for any delay. */
  maxMs?: number;
  /** Restarts allowed in a row before giving up (state `error`). */
  maxAttempts?: number;
  /** A run that became ready and lasted this long resets the attempt count. */
  stableAfterMs?: number;
  /** ±fraction of the delay added as jitter (0 disables it). */
  jitter?: number;
  /** Source of randomness in [0, 1); injected by tests. */
  random?: () => number;
}

export interface RestartDecision {
  /** 1-based number of this restart in the current streak. */
  attempt: number;
  delayMs: number;
  /** `now + delayMs`: when the restart is due (the `restarting{nextAt}` state shows it). */
  nextAt: number;
}

export class RestartPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly maxAttempts: number;
  readonly stableAfterMs: number;
  private readonly jitter: number;
  private readonly random: () => number;

  private streak = 0;
  private startedAt: number | undefined;
  private healthyAt: number | undefined;

  constructor({
    baseMs = 1000,
    maxMs = 30_000,
    maxAttempts = 5,
    stableAfterMs = 10_000,
    jitter = 0.2,
    random = Math.random,
  }: RestartPolicyOptions = {}) {
    if (!(baseMs > 0) || !(maxMs >= baseMs)) throw new RangeError('RestartPolicy needs 0 < baseMs <= maxMs');
    if (!(maxAttempts >= 0)) throw new RangeError('RestartPolicy needs maxAttempts >= 0');
    if (!(jitter >= 0 && jitter < 1)) throw new RangeError('RestartPolicy needs 0 <= jitter < 1');
    this.baseMs = baseMs;
    this.maxMs = maxMs;
    this.maxAttempts = maxAttempts;
    this.stableAfterMs = stableAfterMs;
    this.jitter = jitter;
    this.random = random;
  }

  /** Restarts used in the current streak (0 after a stable run or a reset). */
  get attempts(): number {
    return this.streak;
  }

  /** A process (re)started at `now`. */
  recordStart(now: number): void {
    this.startedAt = now;
    this.healthyAt = undefined;
  }

  /** The current run reached ready (or is still ready) at `now`. */
  recordHealthy(now: number): void {
    this.healthyAt ??= now;
    this.resetIfStable(now);
  }

  /**
   * The process exited unexpectedly at `now`. Returns when to restart it, or `undefined` when the
   * streak is exhausted and the server should go to `error`.
   */
  next(now: number): RestartDecision | undefined {
    this.resetIfStable(now);
    this.startedAt = undefined;
    this.healthyAt = undefined;
    if (this.streak >= this.maxAttempts) return undefined;
    this.streak += 1;
    const delayMs = this.delayFor(this.streak);
    return { attempt: this.streak, delayMs, nextAt: now + delayMs };
  }

  /** Forget the streak (a person pressed Restart, or the config changed). */
  reset(): void {
    this.streak = 0;
    this.startedAt = undefined;
    this.healthyAt = undefined;
  }

  private resetIfStable(now: number): void {
    if (this.startedAt === undefined || this.healthyAt === undefined) return;
    if (now - this.startedAt >= this.stableAfterMs) this.streak = 0;
  }

  private delayFor(attempt: number): number {
    const exponential = Math.min(this.maxMs, this.baseMs * 2 ** (attempt - 1));
    const spread = exponential * this.jitter * (2 * this.random() - 1);
    return Math.round(Math.min(this.maxMs, Math.max(this.baseMs, exponential + spread)));
  }
}
