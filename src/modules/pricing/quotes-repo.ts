/** Quotes (`exchange_rates`): FLOATING or LOCKED, a LOCKED one used by at most one transaction. */
import type { Currency } from '../../core/currencies.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';

export type ExchangeRateType = 'FLOATING' | 'LOCKED';

export type ExchangeRateRow = {
  id: string;
  project_id: string;
  environment: Environment;
  type: ExchangeRateType;
  source_currency: Currency;
  target_currency: Currency;
  source_amount: bigint;
  target_amount: bigint;
  base_rate: bigint;
  platform_fee: bigint;
  partner_fee: bigint;
  limit_amount_brl: bigint;
  expires_at: Date | null;
  used_at: Date | null;
  created_at: Date;
  reference_source: ReferenceSource | null;
  reference_rate: bigint | null;
  reference_at: Date | null;
};

export type ReferenceSource = 'CHAINLINK' | 'PTAX' | 'OPERATOR';

const COLUMNS = `id, project_id, environment, type, source_currency, target_currency, source_amount,
  target_amount, base_rate, platform_fee, partner_fee, limit_amount_brl, expires_at, used_at, created_at,
  reference_source, reference_rate, reference_at`;

export async function insertExchangeRate(db: Executor, row: ExchangeRateRow): Promise<void> {
  await db.query(
    `INSERT INTO exchange_rates (${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
    [
      row.id,
      row.project_id,
      row.environment,
      row.type,
      row.source_currency,
      row.target_currency,
      row.source_amount,
      row.target_amount,
      row.base_rate,
      row.platform_fee,
      row.partner_fee,
      row.limit_amount_brl,
      row.expires_at,
      row.used_at,
      row.created_at,
      row.reference_source,
      row.reference_rate,
      row.reference_at,
    ],
  );
}

/** Locks a quote of the tenant so that one transaction at a time may use it. */
export async function lockExchangeRate(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<ExchangeRateRow | undefined> {
  const rows = await db.query<ExchangeRateRow>(
    `SELECT ${COLUMNS} FROM exchange_rates WHERE id = $1 AND project_id = $2 AND environment = $3 FOR UPDATE`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

/** Moves a quote's expiry to `at` (the sandbox's "expire now"); returns the new row. */
export async function setExchangeRateExpiry(db: Executor, id: string, at: Date): Promise<ExchangeRateRow> {
  const rows = await db.query<ExchangeRateRow>(
    `UPDATE exchange_rates SET expires_at = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, at],
  );
  return rows[0]!;
}

export async function markExchangeRateUsed(db: Executor, id: string, at: Date): Promise<void> {
  await db.query('UPDATE exchange_rates SET used_at = $2 WHERE id = $1', [id, at]);
}

export type QuotePointRow = Pick<
  ExchangeRateRow,
  | 'id'
  | 'environment'
  | 'source_currency'
  | 'target_currency'
  | 'base_rate'
  | 'created_at'
  | 'reference_source'
  | 'reference_rate'
  | 'reference_at'
>;

/** The newest quotes of every project given since `since` (at most `limit`), oldest first. */
export async function quotesSince(db: Executor, since: Date, limit: number): Promise<QuotePointRow[]> {
  return db.query<QuotePointRow>(
    `SELECT * FROM (
       SELECT id, environment, source_currency, target_currency, base_rate, created_at,
              reference_source, reference_rate, reference_at
         FROM exchange_rates WHERE created_at >= $1 ORDER BY created_at DESC, id DESC LIMIT $2) AS newest
     ORDER BY created_at, id`,
    [since, limit],
  );
}

/** A quote of the tenant, as given. */
export async function findExchangeRate(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<ExchangeRateRow | undefined> {
  const rows = await db.query<ExchangeRateRow>(
    `SELECT ${COLUMNS} FROM exchange_rates WHERE id = $1 AND project_id = $2 AND environment = $3`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}
