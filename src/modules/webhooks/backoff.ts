/**
 * When a failed delivery is tried again: exponential back-off (base, 2×base, 4×base, … up to a cap)
 * with jitter, so that endpoints recovering from an outage are not hit by every retry at once, and a
 * final attempt at the end of the retry horizon before the delivery is given up.
 */

export type RetrySchedule = { baseMs: number; maxDelayMs: number };

/**
 * Delay after the `attempt`-th failed attempt (1-based): the exponential step times a random factor in
 * [0.75, 1). Consecutive delays grow strictly until the cap, since 2 × 0.75 > 1.
 */
export function retryDelayMs(attempt: number, schedule: RetrySchedule, random: () => number = Math.random) {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 40);
  const step = Math.min(schedule.maxDelayMs, schedule.baseMs * 2 ** exponent);
  return Math.floor(step * (0.75 + 0.25 * random()));
}

/**
 * The next attempt after a failure at `failedAt`, or null when the delivery has run out of time. The last
 * retry is moved to `retryUntil` itself rather than skipped, so a delivery is retried for its whole horizon.
 */
export function nextAttemptAfterFailure(
  failedAt: Date,
  attempt: number,
  retryUntil: Date,
  schedule: RetrySchedule,
  random: () => number = Math.random,
): Date | null {
  if (failedAt.getTime() >= retryUntil.getTime()) return null;
  const next = failedAt.getTime() + retryDelayMs(attempt, schedule, random);
  return new Date(Math.min(next, retryUntil.getTime()));
}
