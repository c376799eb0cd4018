/**
 * How much of the daily (UTC day) and monthly (UTC month) limits a customer has used, in BRL cents:
 * every money movement of the customer that is not FAILED or EXPIRED, by when it was created. Kept as
 * running totals per customer and period (table `limit_usage`): a movement adds its BRL value when
 * it is created and releases it when it fails or expires, each in the transaction that makes the change.
 *
 * A creation reads the usage (`usageFact`) with its other facts under the customer's row lock, checks
 * it against the limits, and adds its amount (`addUsageFact`) in the statement that writes the
 * movement, in the same transaction: concurrent creations for one customer then check and reserve one
 * after the other, on any number of processes.
 */
import { readOne } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import { subtractUsage, type Usage, type UsageAdded, type UsageRead, usageFact } from './repo.ts';

export { addUsageFact, type Usage, usageFact } from './repo.ts';

export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export function utcMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

const calendarDate = (at: Date) => at.toISOString().slice(0, 10);

/** The day and month a movement created at `at` counts against, as calendar dates. */
function periods(at: Date): { day: string; month: string } {
  return { day: calendarDate(utcDayStart(at)), month: calendarDate(utcMonthStart(at)) };
}

/** The usage `usageFact` reads: the customer's, in the day and month of `at`. */
export const usageAt = (customerId: string, at: Date): UsageRead => ({ customerId, ...periods(at) });

/** What `addUsageFact` adds: a movement's BRL value, to the day and month of `at` (its creation). */
export const usageAdded = (customerId: string, brlCents: bigint, at: Date): UsageAdded => ({
  customerId,
  brlCents,
  ...periods(at),
});

export async function readLimitUsage(db: Executor, customerId: string, at: Date): Promise<Usage> {
  return readOne(db, usageFact, usageAt(customerId, at));
}

/**
 * Takes a movement's BRL value off the usage of the day and month it was created in (`createdAt`), in the
 * transaction that moves it to FAILED or EXPIRED.
 */
export async function releaseLimitUsage(
  tx: Executor,
  customerId: string,
  brlCents: bigint,
  createdAt: Date,
): Promise<void> {
  const { day, month } = periods(createdAt);
  // Both totals hold the movement since its creation; a missing one means the totals are wrong.
  if ((await subtractUsage(tx, customerId, brlCents, day, month)) !== 2) {
    throw new Error(`limit usage of customer ${customerId} is missing a period`);
  }
}
