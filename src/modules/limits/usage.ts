/**
 * How much of the daily (UTC day) and monthly (UTC month) limits a customer has used, in cents.
 * Counts every transaction of the customer whose status counts (all but NOT_COUNTED: FAILED, EXPIRED),
 * by when it was created.
 */
import type { Executor } from '../../db/types.ts';
import { NOT_COUNTED } from '../transactions/state.ts';

export type Usage = { daily: bigint; monthly: bigint };

/** The statuses as SQL literals: fixed names, the same text in every query (and its plan). */
const NOT_COUNTED_SQL = NOT_COUNTED.map((status) => `'${status}'`).join(', ');

export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export function utcMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export async function limitUsage(db: Executor, customerId: string, at: Date): Promise<Usage> {
  const dayStart = utcDayStart(at);
  const nextDay = new Date(dayStart.getTime() + 24 * 3600_000);
  const monthStart = utcMonthStart(at);
  const nextMonth = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  const rows = await db.query<{ daily: string; monthly: string }>(
    `SELECT coalesce(sum(amount) FILTER (WHERE created_at >= $2 AND created_at < $3), 0)::text AS daily,
            coalesce(sum(amount), 0)::text AS monthly
       FROM transactions
      WHERE customer_id = $1
        AND status NOT IN (${NOT_COUNTED_SQL})
        AND created_at >= $4 AND created_at < $5`,
    [customerId, dayStart, nextDay, monthStart, nextMonth],
  );
  return { daily: BigInt(rows[0]!.daily), monthly: BigInt(rows[0]!.monthly) };
}
