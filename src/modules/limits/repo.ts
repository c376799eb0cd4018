/**
 * The limits' SQL: the limits granted by reviewed requests (`limit_requests`), and the running usage per
 * customer and period (`limit_usage`), as facts a creation reads and writes with its other facts.
 */
import { readFact, type WriteFact } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';

/** For each limit, the value of the newest reviewed request that granted one (null: none granted). */
export type Granted = { single: bigint | null; daily: bigint | null; monthly: bigint | null };

const newest = (column: string) =>
  `(SELECT ${column} FROM limit_requests
     WHERE customer_id = $1 AND status IN ('APPROVED', 'PARTIALLY_APPROVED') AND ${column} IS NOT NULL
     ORDER BY updated_at DESC, id DESC LIMIT 1)`;

type GrantColumns = {
  granted_single: bigint | null;
  granted_daily: bigint | null;
  granted_monthly: bigint | null;
};

/** The limits a customer was granted, by the customer's id. */
export const grantsFact = readFact({
  text: `SELECT ${newest('approved_single')} AS granted_single, ${newest('approved_daily')} AS granted_daily,
            ${newest('approved_monthly')} AS granted_monthly`,
  types: ['uuid'],
  params: (customerId: string) => [customerId],
  decode: (row: Partial<GrantColumns>): Granted => ({
    single: row.granted_single ?? null,
    daily: row.granted_daily ?? null,
    monthly: row.granted_monthly ?? null,
  }),
});

/** The usage of a customer in a day and a month (calendar dates), in BRL cents. */
export type UsageRead = { customerId: string; day: string; month: string };
export type Usage = { daily: bigint; monthly: bigint };

type UsageColumns = { used_daily: string | null; used_monthly: string | null };

export const usageFact = readFact({
  text: `SELECT coalesce(sum(amount) FILTER (WHERE period = 'DAY'), 0)::text AS used_daily,
                coalesce(sum(amount) FILTER (WHERE period = 'MONTH'), 0)::text AS used_monthly
           FROM limit_usage
          WHERE customer_id = $1
            AND ((period = 'DAY' AND period_start = $2::date) OR (period = 'MONTH' AND period_start = $3::date))`,
  types: ['uuid', 'date', 'date'],
  params: (read: UsageRead) => [read.customerId, read.day, read.month],
  decode: (row: Partial<UsageColumns>): Usage => ({
    daily: BigInt(row.used_daily ?? 0),
    monthly: BigInt(row.used_monthly ?? 0),
  }),
});

/** A new movement's BRL value, added to its customer's usage of the day and month it is created in. */
export type UsageAdded = { customerId: string; brlCents: bigint; day: string; month: string };

/**
 * Adds movements' BRL values to their customers' usage, in one INSERT: a customer may appear once (a
 * statement cannot update a row twice).
 */
export const addUsageFact: WriteFact<UsageAdded> = {
  text: `INSERT INTO limit_usage AS u (customer_id, period, period_start, amount)
         SELECT m.customer_id, p.period, p.period_start, m.amount
           FROM unnest($1::uuid[], $2::bigint[], $3::date[], $4::date[]) AS m(customer_id, amount, day, month)
          CROSS JOIN LATERAL (VALUES ('DAY', m.day), ('MONTH', m.month)) AS p(period, period_start)
         ON CONFLICT (customer_id, period, period_start) DO UPDATE SET amount = u.amount + EXCLUDED.amount`,
  params: (added) => [
    added.map((movement) => movement.customerId),
    added.map((movement) => movement.brlCents.toString()),
    added.map((movement) => movement.day),
    added.map((movement) => movement.month),
  ],
};

/** Takes `brlCents` off a customer's usage of a day and a month; how many of the two rows it found. */
export async function subtractUsage(
  tx: Executor,
  customerId: string,
  brlCents: bigint,
  day: string,
  month: string,
): Promise<number> {
  const rows = await tx.query(
    `UPDATE limit_usage SET amount = amount - $4
      WHERE customer_id = $1
        AND ((period = 'DAY' AND period_start = $2::date) OR (period = 'MONTH' AND period_start = $3::date))
     RETURNING 1`,
    [customerId, day, month, brlCents],
  );
  return rows.length;
}
