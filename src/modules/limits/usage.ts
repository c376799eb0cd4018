/**
 * How much of the daily (UTC day) and monthly (UTC month) limits a customer has used, in cents.
 * Counts the BRL value (`limit_amount_brl`) of every transaction of the customer, on-ramps and off-ramps
 * in one pool, that is not FAILED or EXPIRED, by when it was created.
 */
import type { Executor } from '../../db/types.ts';

export type Usage = { daily: bigint; monthly: bigint };

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
    `SELECT coalesce(sum(limit_amount_brl) FILTER (WHERE created_at >= $2 AND created_at < $3), 0)::text AS daily,
            coalesce(sum(limit_amount_brl), 0)::text AS monthly
       FROM transactions
      WHERE customer_id = $1
        AND status NOT IN ('FAILED', 'EXPIRED')
        AND created_at >= $4 AND created_at < $5`,
    [customerId, dayStart, nextDay, monthStart, nextMonth],
  );
  return { daily: BigInt(rows[0]!.daily), monthly: BigInt(rows[0]!.monthly) };
}
