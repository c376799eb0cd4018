/**
 * Limits in force for a customer (PRODUCT.md, "Limits in force"): the configured defaults for the
 * customer's type, with each limit replaced by the latest APPROVED or PARTIALLY_APPROVED request that
 * grants it. Amounts are cents.
 */
import type { LimitSet } from '../../config.ts';
import type { StatementPart } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';

/**
 * For each limit, the newest reviewed request that granted a value for it, for the customer `customer`
 * (an SQL expression: a placeholder, or a column of a batch): one row, columns `granted_single`,
 * `granted_daily`, `granted_monthly` (null: none granted).
 */
export function grantsSql(customer: string): string {
  const newest = (column: string) =>
    `(SELECT ${column} FROM limit_requests
       WHERE customer_id = ${customer} AND status IN ('APPROVED', 'PARTIALLY_APPROVED') AND ${column} IS NOT NULL
       ORDER BY updated_at DESC, id DESC LIMIT 1)`;
  return `SELECT ${newest('approved_single')} AS granted_single, ${newest('approved_daily')} AS granted_daily,
            ${newest('approved_monthly')} AS granted_monthly`;
}

const GRANTS = grantsSql('$1');

/** `grantsSql` for one customer, as a part of a combined read. */
export function grantsPart(customerId: string): StatementPart {
  return { text: GRANTS, params: [customerId] };
}

export type GrantColumns = {
  granted_single: bigint | null;
  granted_daily: bigint | null;
  granted_monthly: bigint | null;
};

/** The limits in force, from the columns of `grantsPart` and the defaults of the customer's type. */
export function limitsFrom(row: GrantColumns, defaults: LimitSet): LimitSet {
  return {
    single: row.granted_single ?? defaults.single,
    daily: row.granted_daily ?? defaults.daily,
    monthly: row.granted_monthly ?? defaults.monthly,
  };
}

export async function limitsInForce(db: Executor, customerId: string, defaults: LimitSet): Promise<LimitSet> {
  const { text, params } = grantsPart(customerId);
  const rows = await db.query<GrantColumns>(text, params);
  return limitsFrom(rows[0]!, defaults);
}
