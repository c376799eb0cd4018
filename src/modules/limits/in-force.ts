/**
 * Limits in force for a customer (PRODUCT.md, "Limits in force"): the configured defaults for the
 * customer's type, with each limit replaced by the latest APPROVED or PARTIALLY_APPROVED request that
 * grants it. Amounts are cents.
 */
import type { LimitSet } from '../../config.ts';
import type { Executor } from '../../db/types.ts';

type Granted = { single: bigint | null; daily: bigint | null; monthly: bigint | null };

export async function latestGrants(db: Executor, customerId: string): Promise<Granted> {
  // For each limit, the newest reviewed request that granted a value for it.
  const rows = await db.query<{ single: bigint | null; daily: bigint | null; monthly: bigint | null }>(
    `SELECT
       (SELECT approved_single FROM limit_requests
         WHERE customer_id = $1 AND status IN ('APPROVED', 'PARTIALLY_APPROVED') AND approved_single IS NOT NULL
         ORDER BY updated_at DESC, id DESC LIMIT 1) AS single,
       (SELECT approved_daily FROM limit_requests
         WHERE customer_id = $1 AND status IN ('APPROVED', 'PARTIALLY_APPROVED') AND approved_daily IS NOT NULL
         ORDER BY updated_at DESC, id DESC LIMIT 1) AS daily,
       (SELECT approved_monthly FROM limit_requests
         WHERE customer_id = $1 AND status IN ('APPROVED', 'PARTIALLY_APPROVED') AND approved_monthly IS NOT NULL
         ORDER BY updated_at DESC, id DESC LIMIT 1) AS monthly`,
    [customerId],
  );
  return rows[0] ?? { single: null, daily: null, monthly: null };
}

export async function limitsInForce(db: Executor, customerId: string, defaults: LimitSet): Promise<LimitSet> {
  const granted = await latestGrants(db, customerId);
  return {
    single: granted.single ?? defaults.single,
    daily: granted.daily ?? defaults.daily,
    monthly: granted.monthly ?? defaults.monthly,
  };
}
