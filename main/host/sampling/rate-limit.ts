/** Sampling requests per server per minute when the registry does not say ("samplingPerMinute"). */
export const DEFAULT_SAMPLING_PER_MINUTE = 10;

const WINDOW_MS = 60_000;

/**
 * A sliding one-minute window per server: a server that asks the model more often than its limit
 * is refused until older requests leave the window. Refused requests do not count.
 */
export class SamplingRateLimit {
  private readonly recent = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request of `server` and returns true, or returns false when it is over `perMinute`. */
  take(server: string, perMinute: number): boolean {
    const now = this.now();
    const kept = (this.recent.get(server) ?? []).filter((at) => now - at < WINDOW_MS);
    if (kept.length >= perMinute) {
      this.recent.set(server, kept);
      return false;
    }
    kept.push(now);
    this.recent.set(server, kept);
    return true;
  }

  /** When `server` may ask again, in ms from now (0 when it may now). */
  retryAfterMs(server: string, perMinute: number): number {
    const now = this.now();
    const kept = (this.recent.get(server) ?? []).filter((at) => now - at < WINDOW_MS);
    if (kept.length < perMinute) return 0;
    return Math.max(0, kept[kept.length - perMinute]! + WINDOW_MS - now);
  }
}
