import type { Blockchain, Currency } from '../../core/currencies.ts';
import type { FailureCode } from '../../core/failure-codes.ts';
import type { WriteFact } from '../../db/one-statement.ts';
import { batchedPages, type Page, queryPage } from '../../db/page-query.ts';
import { keyedReads } from '../../db/read-batches.ts';
import {
  ALL_CUSTOMERS,
  byListScope,
  type ListFilter,
  type ListPageRead,
  listConditions,
  listPageConditions,
  pageReads,
  type Scope,
} from '../../db/transaction-filter.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { TransactionStatus, TransactionType } from './state.ts';

export type TimelineStep = { status: TransactionStatus; at: string };

export type TransactionRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  type: TransactionType;
  status: TransactionStatus;
  /** The source currency and amount. */
  currency: Currency;
  amount: bigint;
  target_currency: Currency;
  /** The fiat rail: PIX for BRL; ACH or WIRE for USD (an on-ramp: how the dollars came in). */
  rail: 'PIX' | 'ACH' | 'WIRE';
  /** ON_RAMP in USD: the customer account the dollars were paid into. */
  customer_account_id: string | null;
  /** ON_RAMP: the PIX charge. */
  pix_txid: string | null;
  br_code: string | null;
  expires_at: Date | null;
  /** The platform's and the partner's fee terms when the transaction was created. */
  fee_basis_points: number;
  fee_flat: bigint;
  fee_minimum: bigint;
  partner_fee_basis_points: number;
  partner_fee_flat: bigint;
  deposit_amount: bigint | null;
  deposit_end_to_end_id: string | null;
  deposited_at: Date | null;
  rate: bigint | null;
  fee: bigint | null;
  net_amount: bigint | null;
  target_amount: bigint | null;
  /** fee = platform_fee + partner_fee */
  platform_fee: bigint | null;
  partner_fee: bigint | null;
  /** What the transaction counts against the customer's limits, in BRL cents (every type). */
  limit_amount_brl: bigint;
  exchange_rate_id: string | null;
  /** OFF_RAMP: where the BRL goes, why, and the PIX payment that carries it. */
  bank_account_id: string | null;
  purpose: string | null;
  memo: string | null;
  metadata: Record<string, unknown> | null;
  end_to_end_id: string | null;
  failure_reason: string | null;
  /** Why it FAILED or EXPIRED, as a stable code (null otherwise, and on rows created before codes). */
  failure_code?: FailureCode | null;
  /** The chain the stablecoin goes to (null on on-ramps older than wallets: the default chain). */
  blockchain: Blockchain | null;
  /** The send that delivers it, once queued, and its hash once signed. */
  chain_send_id: string | null;
  transaction_hash: string | null;
  block_explorer_url: string | null;
  return_reason: string | null;
  /** RETURNED over ACH: the Nacha return code the receiving bank gave (R01, R03, …). */
  return_code?: string | null;
  refund_status: 'PENDING' | 'SUCCESS' | 'FAILED' | null;
  refund_amount: bigint | null;
  refund_failure_reason: string | null;
  refund_updated_at: Date | null;
  /** The market reference the conversion was priced from (null before it is priced, or on older rows). */
  reference_source?: 'CHAINLINK' | 'PTAX' | 'OPERATOR' | null;
  reference_rate?: bigint | null;
  reference_at?: Date | null;
  timeline: TimelineStep[];
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = `id, customer_id, project_id, environment, type, status, currency, amount, target_currency, rail,
  pix_txid, br_code, expires_at, fee_basis_points, fee_flat, deposit_amount, deposit_end_to_end_id,
  deposited_at, rate, fee, net_amount, target_amount, failure_reason, timeline, created_at, updated_at,
  fee_minimum, partner_fee_basis_points, partner_fee_flat, platform_fee, partner_fee, limit_amount_brl,
  exchange_rate_id, bank_account_id, purpose, memo, metadata, end_to_end_id, return_reason, refund_status,
  refund_amount, refund_failure_reason, refund_updated_at,
  blockchain, chain_send_id, transaction_hash, block_explorer_url, failure_code,
  reference_source, reference_rate, reference_at, customer_account_id, return_code`;

/**
 * The INSERT of new transactions, as a part of the statement that writes their creations: the rows
 * travel as one JSON array (amounts as strings, instants in ISO 8601), whatever their number.
 */
export const insertTransactionsFact: WriteFact<TransactionRow> = {
  text: `INSERT INTO transactions (${COLUMNS})
   SELECT ${COLUMNS} FROM jsonb_populate_recordset(NULL::transactions, $1::jsonb)`,
  params: (rows) => [
    JSON.stringify(rows, (_, value) => (typeof value === 'bigint' ? value.toString() : value)),
  ],
};

export async function findTransaction(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<TransactionRow | undefined> {
  const rows = await db.query<TransactionRow>(
    `SELECT ${COLUMNS} FROM transactions WHERE id = $1 AND project_id = $2 AND environment = $3`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

/** Reads one on- or off-ramp of the tenant, coalesced with the reads made meanwhile (`read-batches.ts`). */
export function transactionReader(
  db: Executor,
): (read: { tenant: Tenant; id: string }) => Promise<TransactionRow | undefined> {
  return keyedReads(db, {
    table: 'transactions',
    columns: COLUMNS,
    keys: [['id', 'uuid']],
    values: (read) => [read.id],
  });
}

/** Locks a transaction for a state change. */
export async function lockTransaction(db: Executor, id: string): Promise<TransactionRow | undefined> {
  const rows = await db.query<TransactionRow>(
    `SELECT ${COLUMNS} FROM transactions WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

/** Locks the transaction a PIX charge's txid belongs to, in one environment. */
export async function lockTransactionByTxid(
  db: Executor,
  environment: Environment,
  txid: string,
): Promise<TransactionRow | undefined> {
  const rows = await db.query<TransactionRow>(
    `SELECT ${COLUMNS} FROM transactions WHERE pix_txid = $1 AND environment = $2 FOR UPDATE`,
    [txid, environment],
  );
  return rows[0];
}

export type { ListFilter, Scope } from '../../db/transaction-filter.ts';

export async function listTransactions(
  db: Executor,
  scope: Scope,
  filter: ListFilter,
  limit: number,
  offset: number,
): Promise<{ rows: TransactionRow[]; total: number }> {
  const { where, params } = listConditions(scope, filter);
  if (filter.after) {
    // a keyset page: the rows past the cursor, and the list's total without it
    const counted = listConditions(scope, { ...filter, after: undefined });
    const [rows, count] = await Promise.all([
      db.query<TransactionRow>(
        `SELECT ${COLUMNS} FROM transactions WHERE ${where}
          ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1}`,
        [...params, limit],
      ),
      db.query<{ n: bigint }>(
        `SELECT count(*) AS n FROM transactions WHERE ${counted.where}`,
        counted.params,
      ),
    ]);
    return { rows, total: Number(count[0]!.n) };
  }
  const { rows, total } = await queryPage<TransactionRow>(
    db,
    `SELECT count(*) AS total FROM transactions WHERE ${where}`,
    `SELECT ${COLUMNS} FROM transactions WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows, total: total ?? 0 };
}

/**
 * The newest `limit` on- and off-ramps of a partner's list (the tenant's, or one customer's), with the
 * list's exact total over both tables from `transaction_counts`, coalesced with the pages read
 * meanwhile. A customer of another tenant has no count there and no rows: an empty page.
 */
export function transactionPageReader(db: Executor): (read: ListPageRead) => Promise<Page<TransactionRow>> {
  return byListScope((ofCustomer, keyset) =>
    batchedPages<ListPageRead, TransactionRow>(db, {
      reads: pageReads(keyset),
      // an aggregate, read once per page: a scalar subquery here would be pulled up into the statement
      // and read again for every row of the page
      totalSql: `SELECT coalesce(sum(k.total), 0) AS total FROM transaction_counts k
                  WHERE k.project_id = r.project_id AND k.environment = r.environment
                    AND k.customer_id = r.customer_id${ofCustomer ? ` AND k.customer_id <> '${ALL_CUSTOMERS}'` : ''}`,
      pageSql: `SELECT ${COLUMNS} FROM transactions t WHERE ${listPageConditions(ofCustomer, undefined, keyset)}
                 ORDER BY t.created_at DESC, t.id DESC LIMIT r.page_limit`,
      params: pageReads(keyset).params,
    }),
  );
}

/** Fields a step may set besides the status. */
export type StepChanges = Partial<
  Pick<
    TransactionRow,
    | 'deposit_amount'
    | 'deposit_end_to_end_id'
    | 'deposited_at'
    | 'rate'
    | 'fee'
    | 'net_amount'
    | 'target_amount'
    | 'platform_fee'
    | 'partner_fee'
    | 'end_to_end_id'
    | 'failure_reason'
    | 'failure_code'
    | 'return_reason'
    | 'return_code'
    | 'reference_source'
    | 'reference_rate'
    | 'reference_at'
  >
>;

/** Moves to `status`, appends the step to the timeline and applies `changes`; returns the new row. */
export async function updateStep(
  db: Executor,
  id: string,
  status: TransactionStatus,
  at: Date,
  changes: StepChanges,
): Promise<TransactionRow> {
  const step: TimelineStep = { status, at: at.toISOString() };
  const rows = await db.query<TransactionRow>(
    `UPDATE transactions SET
        status = $2,
        timeline = timeline || $3::jsonb,
        updated_at = $4,
        deposit_amount = coalesce($5, deposit_amount),
        deposit_end_to_end_id = coalesce($6, deposit_end_to_end_id),
        deposited_at = coalesce($7, deposited_at),
        rate = coalesce($8, rate),
        fee = coalesce($9, fee),
        net_amount = coalesce($10, net_amount),
        target_amount = coalesce($11, target_amount),
        failure_reason = coalesce($12, failure_reason),
        platform_fee = coalesce($13, platform_fee),
        partner_fee = coalesce($14, partner_fee),
        end_to_end_id = coalesce($15, end_to_end_id),
        return_reason = coalesce($16, return_reason),
        failure_code = coalesce($17, failure_code),
        reference_source = coalesce($18, reference_source),
        reference_rate = coalesce($19, reference_rate),
        reference_at = coalesce($20, reference_at),
        return_code = coalesce($21, return_code)
      WHERE id = $1
      RETURNING ${COLUMNS}`,
    [
      id,
      status,
      JSON.stringify([step]),
      at,
      changes.deposit_amount ?? null,
      changes.deposit_end_to_end_id ?? null,
      changes.deposited_at ?? null,
      changes.rate ?? null,
      changes.fee ?? null,
      changes.net_amount ?? null,
      changes.target_amount ?? null,
      changes.failure_reason ?? null,
      changes.platform_fee ?? null,
      changes.partner_fee ?? null,
      changes.end_to_end_id ?? null,
      changes.return_reason ?? null,
      changes.failure_code ?? null,
      changes.reference_source ?? null,
      changes.reference_rate ?? null,
      changes.reference_at ?? null,
      changes.return_code ?? null,
    ],
  );
  return rows[0]!;
}

/** Moves a charge's expiry to `at` (the sandbox's "expire now"); returns the new row. */
export async function setExpiresAt(db: Executor, id: string, at: Date): Promise<TransactionRow> {
  const rows = await db.query<TransactionRow>(
    `UPDATE transactions SET expires_at = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, at],
  );
  return rows[0]!;
}

/** Charges past their expiry still waiting for a deposit, locked and skipped by other workers. */
export async function claimExpired(db: Executor, now: Date, limit: number): Promise<TransactionRow[]> {
  return db.query<TransactionRow>(
    `SELECT ${COLUMNS} FROM transactions
      WHERE status = 'AWAITING_FUNDS' AND expires_at <= $1
      ORDER BY expires_at
      LIMIT $2
        FOR UPDATE SKIP LOCKED`,
    [now, limit],
  );
}

/**
 * The claim of settlement, read through the partial index `transactions_settlement_due` (migration 025),
 * which holds exactly the rows it can claim: however many transactions wait for something else, it never
 * walks past them.
 */
export const CLAIM_IN_FLIGHT = `SELECT ${COLUMNS} FROM transactions
      WHERE status IN ('TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN')
        -- an on-ramp whose stablecoin is on its way waits for the chain's confirmations
        AND chain_send_id IS NULL
        -- an off-ramp in TRANSFERRING_FIAT waits for its payout's result, not for settlement
        AND NOT (type = 'OFF_RAMP' AND status = 'TRANSFERRING_FIAT')
      ORDER BY updated_at
      LIMIT 1
        FOR UPDATE SKIP LOCKED`;

/** One transaction that settlement should carry forward, locked and skipped by other workers. */
export async function claimInFlight(db: Executor): Promise<TransactionRow | undefined> {
  const rows = await db.query<TransactionRow>(CLAIM_IN_FLIGHT);
  return rows[0];
}

export type RefundState = {
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  amount: bigint;
  failureReason: string | null;
  at: Date;
};

/** Records where the refund of an on-ramp stands; returns the new row. */
export async function setRefundState(db: Executor, id: string, refund: RefundState): Promise<TransactionRow> {
  const rows = await db.query<TransactionRow>(
    `UPDATE transactions SET refund_status = $2, refund_amount = $3, refund_failure_reason = $4,
            refund_updated_at = $5, updated_at = $5
      WHERE id = $1
      RETURNING ${COLUMNS}`,
    [id, refund.status, refund.amount, refund.failureReason, refund.at],
  );
  return rows[0]!;
}

export async function findTransactionById(db: Executor, id: string): Promise<TransactionRow | undefined> {
  const rows = await db.query<TransactionRow>(`SELECT ${COLUMNS} FROM transactions WHERE id = $1`, [id]);
  return rows[0];
}
