/**
 * How much of the daily (UTC day) and monthly (UTC month) limits a customer has used, in BRL cents:
 * every money movement of the customer that is not FAILED or EXPIRED, by when it was created. Kept as
 * running totals per customer and period (table `limit_usage`): a movement reserves its BRL value when
 * it is created and releases it when it fails or expires, each in the transaction that makes the change.
 */
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
function periods(at: Date): [day: string, month: string] {
  return [calendarDate(utcDayStart(at)), calendarDate(utcMonthStart(at))];
}

const USAGE = `SELECT coalesce(sum(amount) FILTER (WHERE period = 'DAY'), 0)::text AS daily,
            coalesce(sum(amount) FILTER (WHERE period = 'MONTH'), 0)::text AS monthly
       FROM limit_usage
      WHERE customer_id = $1
        AND ((period = 'DAY' AND period_start = $2::date) OR (period = 'MONTH' AND period_start = $3::date))`;

export async function readLimitUsage(db: Executor, customerId: string, at: Date): Promise<Usage> {
  const rows = await db.query<{ daily: string; monthly: string }>(USAGE, [customerId, ...periods(at)]);
  return { daily: BigInt(rows[0]!.daily), monthly: BigInt(rows[0]!.monthly) };
}

/**
 * Adds `brlCents` to the customer's usage of the day and month of `at`, unless that would take either
 * past its limit; answers the usage as it was before, so the caller can tell which limit refused it.
 * One statement. Call it under the customer's row lock, in the transaction that creates the movement:
 * concurrent creations for one customer then reserve one after the other, on any number of processes.
 */
export async function reserveLimitUsage(
  tx: Executor,
  customerId: string,
  brlCents: bigint,
  at: Date,
  limits: { daily: bigint; monthly: bigint },
): Promise<{ reserved: boolean; before: Usage }> {
  const rows = await tx.query<{ daily: string; monthly: string; reserved: boolean }>(
    `WITH used AS (${USAGE}),
          fits AS (SELECT daily::bigint + $4::bigint <= $5::bigint AND monthly::bigint + $4::bigint <= $6::bigint AS ok
                     FROM used),
          added AS (
            INSERT INTO limit_usage AS u (customer_id, period, period_start, amount)
            SELECT $1, p.period, p.period_start, $4::bigint
              FROM (VALUES ('DAY', $2::date), ('MONTH', $3::date)) AS p (period, period_start), fits
             WHERE fits.ok
            ON CONFLICT (customer_id, period, period_start) DO UPDATE SET amount = u.amount + EXCLUDED.amount
            RETURNING 1)
     SELECT used.daily, used.monthly, fits.ok AS reserved FROM used, fits`,
    [customerId, ...periods(at), brlCents, limits.daily, limits.monthly],
  );
  const row = rows[0]!;
  return { reserved: row.reserved, before: { daily: BigInt(row.daily), monthly: BigInt(row.monthly) } };
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
