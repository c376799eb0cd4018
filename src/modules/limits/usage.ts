/**
 * How much of the daily (UTC day) and monthly (UTC month) limits a customer has used, in cents.
 * Counts every transaction of the customer that is not FAILED or EXPIRED.
 */
import type { Executor } from '../../db/types.ts';

export type Usage = { daily: bigint; monthly: bigint };

export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export function utcMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** Until money moves (the transactions module), nothing is used. */
export async function limitUsage(_db: Executor, _customerId: string, _at: Date): Promise<Usage> {
  return { daily: 0n, monthly: 0n };
}
