import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../main/host/servers/backoff';

const noJitter = { jitter: 0 };

describe('RestartPolicy', () => {
  it('backs off exponentially from baseMs, capped at maxMs, then gives up after maxAttempts', () => {
    const policy = new RestartPolicy({ baseMs: 1000, maxMs: 30_000, maxAttempts: 7, ...noJitter });
    const delays: number[] = [];
    let now = 0;
    for (;;) {
      policy.recordStart(now);
      now += 50; // crashes at once
      const next = policy.next(now);
      if (!next) break;
      expect(next.attempt).toBe(delays.length + 1);
      expect(next.nextAt).toBe(now + next.delayMs);
      delays.push(next.delayMs);
      now = next.nextAt;
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it('defaults: 1 s base, 30 s cap, 5 tries, then undefined (→ error state)', () => {
    const policy = new RestartPolicy({ ...noJitter });
    const delays = [1, 2, 3, 4, 5].map((i) => policy.next(i)?.delayMs);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000]);
    expect(policy.next(6)).toBeUndefined();
    expect(policy.next(7)).toBeUndefined();
  });

  it('a crash at startup (never ready) is counted and delayed, never hot-looped', () => {
    const policy = new RestartPolicy({ maxAttempts: 3, stableAfterMs: 10_000 });
    let now = 1_000_000;
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      policy.recordStart(now);
      // Even a process that "ran" a long time without ever becoming ready does not reset the streak.
      now += 60_000;
      const next = policy.next(now)!;
      expect(next.delayMs).toBeGreaterThanOrEqual(1000);
      seen.push(next.attempt);
      now = next.nextAt;
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(policy.next(now)).toBeUndefined();
  });

  it('a run that was ready for longer than stableAfterMs resets the attempt count', () => {
    const policy = new RestartPolicy({ stableAfterMs: 10_000, ...noJitter });
    policy.recordStart(0);
    expect(policy.next(100)?.attempt).toBe(1);
    policy.recordStart(1100);
    expect(policy.next(1200)?.attempt).toBe(2);

    policy.recordStart(5000);
    policy.recordHealthy(5500);
    const next = policy.next(5000 + 10_000);
    expect(next).toEqual({ attempt: 1, delayMs: 1000, nextAt: 16_000 });
  });

  it('a ready run that crashes before stableAfterMs keeps counting', () => {
    const policy = new RestartPolicy({ stableAfterMs: 10_000, ...noJitter });
    policy.recordStart(0);
    policy.next(10);
    policy.recordStart(2000);
    policy.recordHealthy(2100);
    expect(policy.next(2000 + 9_999)?.attempt).toBe(2);
  });

  it('recordHealthy after the stable period resets at once (attempts reads 0)', () => {
    const policy = new RestartPolicy({ stableAfterMs: 1000, ...noJitter });
    policy.next(0);
    policy.next(1);
    expect(policy.attempts).toBe(2);
    policy.recordStart(10);
    policy.recordHealthy(20);
    expect(policy.attempts).toBe(2);
    policy.recordHealthy(1010);
    expect(policy.attempts).toBe(0);
  });

  it('reset() forgets the streak (manual restart)', () => {
    const policy = new RestartPolicy({ maxAttempts: 1, ...noJitter });
    expect(policy.next(0)?.attempt).toBe(1);
    expect(policy.next(1)).toBeUndefined();
    policy.reset();
    expect(policy.next(2)?.attempt).toBe(1);
  });

  it('jitter spreads delays within ±jitter, never under baseMs nor over maxMs', () => {
    const low = new RestartPolicy({ jitter: 0.2, random: () => 0 });
    const high = new RestartPolicy({ jitter: 0.2, random: () => 0.999_999 });
    const mid = new RestartPolicy({ jitter: 0.2, random: () => 0.5 });
    expect(low.next(0)?.delayMs).toBe(1000); // 800 clamped up to baseMs
    expect(low.next(0)?.delayMs).toBe(1600);
    expect(high.next(0)?.delayMs).toBe(1200);
    expect(mid.next(0)?.delayMs).toBe(1000);
    const capped = new RestartPolicy({ baseMs: 1000, maxMs: 2000, maxAttempts: 10, jitter: 0.5, random: () => 0.999 });
    for (let i = 0; i < 10; i++) expect(capped.next(i)!.delayMs).toBeLessThanOrEqual(2000);
  });

  it('rejects nonsense options', () => {
    expect(() => new RestartPolicy({ baseMs: 0 })).toThrow(RangeError);
    expect(() => new RestartPolicy({ baseMs: 5000, maxMs: 1000 })).toThrow(RangeError);
    expect(() => new RestartPolicy({ jitter: 1 })).toThrow(RangeError);
  });
});
