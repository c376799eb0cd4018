/**
 * The page queries of the list baselines: the same SELECT of the page the service runs (columns, filter,
 * order, limit), as a named statement through a pg Pool, answered as `{ data: rows }` with no total, no
 * presenter and no schema. A transaction list reads both tables the service reads, one statement each.
 */
import pg from 'pg';

const LIMIT_REQUEST_PAGE = `SELECT id, customer_id, project_id, environment, requested_single, requested_daily,
       requested_monthly, approved_single, approved_daily, approved_monthly, supporting_document_type,
       supporting_document_id, status, review_comment, created_at, updated_at
  FROM limit_requests
 WHERE customer_id = $1 AND project_id = $2 AND environment = $3
 ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`;

const CUSTOMER_PAGE = `SELECT c.id, c.project_id, c.environment, c.type, c.name, c.tax_id, c.country, c.email,
       c.birth_date, c.incorporation_date, c.created_at, c.updated_at,
       v.id AS verification_id, v.status AS verification_status, v.level AS verification_level
  FROM customers c JOIN verifications v ON v.customer_id = c.id
 WHERE c.project_id = $1 AND c.environment = $2
 ORDER BY c.created_at DESC, c.id DESC LIMIT $3 OFFSET $4`;

const TRANSACTION_COLUMNS = `id, customer_id, project_id, environment, type, status, currency, amount,
  target_currency, rail, pix_txid, br_code, expires_at, fee_basis_points, fee_flat, deposit_amount,
  deposit_end_to_end_id, deposited_at, rate, fee, net_amount, target_amount, failure_reason, timeline, created_at,
  updated_at, fee_minimum, partner_fee_basis_points, partner_fee_flat, platform_fee, partner_fee, limit_amount_brl,
  exchange_rate_id, bank_account_id, purpose, memo, metadata, end_to_end_id, return_reason, refund_status,
  refund_amount, refund_failure_reason, refund_updated_at, blockchain, chain_send_id, transaction_hash,
  block_explorer_url`;
const CHAIN_COLUMNS = `id, customer_id, project_id, environment, type, status, currency, amount, blockchain,
  to_customer_id, from_address, to_address, transaction_hash, failure_reason, metadata, timeline, created_at,
  updated_at`;

/** `GET /transactions` reads two tables: the ramps' page and the transfers' and deposits' page. */
const TRANSACTION_PAGES = {
  tenant: [
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE project_id = $1 AND environment = $2
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    `SELECT ${CHAIN_COLUMNS} FROM chain_transactions WHERE project_id = $1 AND environment = $2
      ORDER BY created_at DESC, id DESC LIMIT $3`,
  ],
  customer: [
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions
      WHERE project_id = $1 AND environment = $2 AND customer_id = $4
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    `SELECT ${CHAIN_COLUMNS} FROM chain_transactions
      WHERE project_id = $1 AND environment = $2 AND (customer_id = $4 OR to_customer_id = $4)
      ORDER BY created_at DESC, id DESC LIMIT $3`,
  ],
};

export function openPages(url: string, max: number) {
  pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  return {
    async limitRequests(customerId: string, projectId: string, environment: string, limit: number) {
      const values = [customerId, projectId, environment, limit, 0];
      return (await pool.query({ name: 'limit_request_page', text: LIMIT_REQUEST_PAGE, values })).rows;
    },
    async customers(projectId: string, environment: string, limit: number) {
      const values = [projectId, environment, limit, 0];
      return (await pool.query({ name: 'customer_page', text: CUSTOMER_PAGE, values })).rows;
    },
    /** Both tables' pages at once, as the service reads them; their rows one after the other, unmerged. */
    async transactions(projectId: string, environment: string, limit: number, customerId?: string) {
      const [kind, values] = customerId
        ? (['customer', [projectId, environment, limit, customerId]] as const)
        : (['tenant', [projectId, environment, limit]] as const);
      const [ramps, moves] = await Promise.all(
        TRANSACTION_PAGES[kind].map((text, index) =>
          pool.query({ name: `transaction_page_${kind}_${index}`, text, values: [...values] }),
        ),
      );
      return [...ramps!.rows, ...moves!.rows];
    },
    close: () => pool.end(),
  };
}
