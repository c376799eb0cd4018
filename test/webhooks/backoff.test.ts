import { describe, expect, it } from 'vitest';
import { nextAttemptAfterFailure, retryDelayMs } from '../../src/modules/webhooks/backoff.ts';

const schedule = { baseMs: 5_000, maxDelayMs: 3_600_000 };
const HOUR = 3_600_000;

describe('webhook retry schedule', () => {
  it('grows exponentially from the base delay up to the cap', () => {
    const upper = (attempt: number) => retryDelayMs(attempt, schedule, () => 0.999_999);
    expect(upper(1)).toBe(4_999);
    expect(upper(2)).toBe(9_999);
    expect(upper(3)).toBe(19_999);
    for (let attempt = 1; attempt < 40; attempt++) {
      // even the lowest delay of one retry exceeds the highest of the one before, until the cap
      const lowestNext = retryDelayMs(attempt + 1, schedule, () => 0);
      if (lowestNext < 0.75 * schedule.maxDelayMs) expect(lowestNext).toBeGreaterThan(upper(attempt));
      expect(upper(attempt)).toBeLessThanOrEqual(schedule.maxDelayMs);
    }
    expect(upper(200)).toBeLessThanOrEqual(schedule.maxDelayMs);
    expect(retryDelayMs(200, schedule, () => 0)).toBe(0.75 * schedule.maxDelayMs);
  });

  it('spreads retries with jitter between 75% and 100% of the step', () => {
    const samples = Array.from({ length: 200 }, () => retryDelayMs(4, schedule));
    expect(new Set(samples).size).toBeGreaterThan(50);
    for (const sample of samples) {
      expect(sample).toBeGreaterThanOrEqual(30_000);
      expect(sample).toBeLessThan(40_000);
    }
  });

  it('keeps retrying for the whole horizon and makes the last attempt at its end', () => {
    const created = new Date('2025-01-01T00:00:00.000Z');
    const until = new Date(created.getTime() + 24 * HOUR);
    let at = created;
    const attempts: Date[] = [at];
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAfterFailure(at, attempt, until, schedule, () => 0.5);
      if (!next) break;
      attempts.push(next);
      at = next;
    }
    expect(attempts.at(-1)).toEqual(until);
    expect(attempts.length).toBeGreaterThan(20);
    expect(attempts.length).toBeLessThan(40);
    expect(nextAttemptAfterFailure(until, 99, until, schedule)).toBeNull();
  });
});
