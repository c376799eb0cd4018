/**
 * How much of the daily (UTC day) and monthly (UTC month) limits a customer has used, in BRL cents:
 * every money movement of the customer that is not FAILED or EXPIRED, by when it was created. Kept as
 * running totals per customer and period (table `limit_usage`): a movement adds its BRL value when
 * it is created and releases it when it fails or expires, each in the transaction that makes the change.
 */
import type { StatementPart } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';

export type Usage = { daily: bigint; monthly: bigint };

export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export function utcMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

const calendarDate = (at: Date) => at.toISOString().slice(0, 10);

/** The day and month a movement created at `at` counts against, as calendar dates. */
export function periods(at: Date): [day: string, month: string] {
  return [calendarDate(utcDayStart(at)), calendarDate(utcMonthStart(at))];
}

/**
 * The usage of customer `customer` in the day `day` and month `month` (SQL expressions: placeholders, or
 * columns of a batch): one row, columns `used_daily` and `used_monthly` (text).
 */
export function usageSql(customer: string, day: string, month: string): string {
  return `SELECT coalesce(sum(amount) FILTER (WHERE period = 'DAY'), 0)::text AS used_daily,
                  coalesce(sum(amount) FILTER (WHERE period = 'MONTH'), 0)::text AS used_monthly
             FROM limit_usage
            WHERE customer_id = ${customer}
              AND ((period = 'DAY' AND period_start = ${day}) OR (period = 'MONTH' AND period_start = ${month}))`;
}

const USAGE = usageSql('$1', '$2::date', '$3::date');

/** The usage of the day and month of `at`: one row, columns `used_daily` and `used_monthly` (text). */
export function usagePart(customerId: string, at: Date): StatementPart {
  return { text: USAGE, params: [customerId, ...periods(at)] };
}

export type UsageColumns = { used_daily: string; used_monthly: string };

export const usageFrom = (row: UsageColumns): Usage => ({
  daily: BigInt(row.used_daily),
  monthly: BigInt(row.used_monthly),
});

export async function readLimitUsage(db: Executor, customerId: string, at: Date): Promise<Usage> {
  const { text, params } = usagePart(customerId, at);
  const rows = await db.query<UsageColumns>(text, params);
  return usageFrom(rows[0]!);
}

/**
 * Adds a new movement's `brlCents` to the customer's usage of the day and month of `at` (its creation),
 * as a part of the statement that writes the movement. The caller has checked it against the limits
 * with `usagePart`, read under the customer's row lock in the same transaction: concurrent creations for
 * one customer then check and reserve one after the other, on any number of processes.
 */
export function addUsagePart(customerId: string, brlCents: bigint, at: Date): StatementPart {
  return {
    text: `INSERT INTO limit_usage AS u (customer_id, period, period_start, amount)
           VALUES ($1, 'DAY', $2::date, $4::bigint), ($1, 'MONTH', $3::date, $4::bigint)
           ON CONFLICT (customer_id, period, period_start) DO UPDATE SET amount = u.amount + EXCLUDED.amount`,
    params: [customerId, ...periods(at), brlCents],
  };
}

/**
 * `addUsagePart` for several movements of different customers created at `at`, in one INSERT: a
 * customer may appear once (a statement cannot update a row twice).
 */
export function addUsagesPart(
  movements: { customerId: string; brlCents: bigint }[],
  at: Date,
): StatementPart {
  return {
    text: `INSERT INTO limit_usage AS u (customer_id, period, period_start, amount)
           SELECT m.customer_id, p.period, p.period_start, m.amount
             FROM unnest($1::uuid[], $2::bigint[]) AS m(customer_id, amount)
            CROSS JOIN (VALUES ('DAY', $3::date), ('MONTH', $4::date)) AS p(period, period_start)
           ON CONFLICT (customer_id, period, period_start) DO UPDATE SET amount = u.amount + EXCLUDED.amount`,
    params: [
      movements.map((movement) => movement.customerId),
      movements.map((movement) => movement.brlCents.toString()),
      ...periods(at),
    ],
  };
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
  const rows = await tx.query(
    `UPDATE limit_usage SET amount = amount - $4
      WHERE customer_id = $1
        AND ((period = 'DAY' AND period_start = $2::date) OR (period = 'MONTH' AND period_start = $3::date))
     RETURNING 1`,
    [customerId, ...periods(createdAt), brlCents],
  );
  // Both totals hold the movement since its creation; a missing one means the totals are wrong.
  if (rows.length !== 2) throw new Error(`limit usage of customer ${customerId} is missing a period`);
}
