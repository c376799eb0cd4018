/** SQL of wallets and of stablecoin transactions (transfers and deposits). */

import type { Blockchain, Stablecoin } from '../../core/currencies.ts';
import type { FailureCode } from '../../core/failure-codes.ts';
import { batchedRows, keyedReads } from '../../db/read-batches.ts';
import {
  byListScope,
  type ListFilter,
  type ListPageRead,
  listConditions,
  listPageConditions,
  pageReads,
} from '../../db/transaction-filter.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';

export type WalletRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  blockchain: Blockchain;
  address: string;
  hd_index: number;
  created_at: Date;
};

const WALLET_COLUMNS = 'id, customer_id, project_id, environment, blockchain, address, hd_index, created_at';

export async function walletsOf(db: Executor, customerId: string): Promise<WalletRow[]> {
  return db.query<WalletRow>(`SELECT ${WALLET_COLUMNS} FROM wallets WHERE customer_id = $1`, [customerId]);
}

export async function nextHdIndex(db: Executor): Promise<number> {
  const rows = await db.query<{ n: bigint }>(`SELECT nextval('wallet_hd_index') AS n`);
  return Number(rows[0]!.n);
}

export async function insertWallets(db: Executor, rows: WalletRow[]): Promise<void> {
  for (const row of rows) {
    await db.query(
      `INSERT INTO wallets (${WALLET_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (customer_id, blockchain) DO NOTHING`,
      [
        row.id,
        row.customer_id,
        row.project_id,
        row.environment,
        row.blockchain,
        row.address,
        row.hd_index,
        row.created_at,
      ],
    );
  }
}

/** The wallet an address belongs to, in one environment (EVM addresses in any case; Tron's exactly). */
export async function walletByAddress(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
  address: string,
): Promise<WalletRow | undefined> {
  const rows = await db.query<WalletRow>(
    `SELECT ${WALLET_COLUMNS} FROM wallets
      WHERE environment = $1 AND blockchain = $2 AND lower(address) = lower($3)
        AND (blockchain <> 'TRON' OR address = $3)`,
    [environment, blockchain, address],
  );
  return rows[0];
}

export async function walletAddresses(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
): Promise<string[]> {
  const rows = await db.query<{ address: string }>(
    `SELECT address FROM wallets WHERE environment = $1 AND blockchain = $2`,
    [environment, blockchain],
  );
  return rows.map((row) => row.address);
}

export type WalletBalanceRow = {
  blockchain: Blockchain;
  currency: Stablecoin;
  amount: bigint;
  updated_at: Date;
};

/**
 * A customer's stablecoin per chain, from the ledger: the negated sum of their wallet entries. Entries
 * written before wallets had chains count on `defaultChain`.
 */
export async function walletBalances(
  db: Executor,
  customerId: string,
  defaultChain: Blockchain,
): Promise<WalletBalanceRow[]> {
  const rows = await db.query<{
    blockchain: Blockchain;
    currency: Stablecoin;
    amount: string;
    updated_at: Date;
  }>(
    `SELECT coalesce(e.blockchain, $2) AS blockchain, e.currency, (-sum(e.amount))::text AS amount,
            max(j.created_at) AS updated_at
       FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
      WHERE e.customer_id = $1 AND e.account = 'CUSTOMER_WALLET'
      GROUP BY 1, 2`,
    [customerId, defaultChain],
  );
  return rows.map((row) => ({ ...row, amount: BigInt(row.amount) }));
}

/** One customer's balance of one stablecoin on one chain. */
export async function walletBalance(
  db: Executor,
  customerId: string,
  blockchain: Blockchain,
  currency: Stablecoin,
  defaultChain: Blockchain,
): Promise<bigint> {
  const rows = await db.query<{ amount: string }>(
    `SELECT coalesce(-sum(amount), 0)::text AS amount FROM ledger_entries
      WHERE customer_id = $1 AND account = 'CUSTOMER_WALLET' AND currency = $3
        AND coalesce(blockchain, $4) = $2`,
    [customerId, blockchain, currency, defaultChain],
  );
  return BigInt(rows[0]!.amount);
}

export type ChainTransactionStatus = 'PROCESSING' | 'AWAITING_TRAVEL_RULE' | 'SUCCESS' | 'FAILED';
export type TimelineStep = { status: ChainTransactionStatus; at: string };

export type ChainTransactionRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  type: 'TRANSFER' | 'DEPOSIT';
  status: ChainTransactionStatus;
  currency: Stablecoin;
  amount: bigint;
  blockchain: Blockchain;
  to_customer_id: string | null;
  from_address: string | null;
  to_address: string | null;
  transaction_hash: string | null;
  failure_reason: string | null;
  failure_code?: FailureCode | null;
  metadata: Record<string, unknown> | null;
  timeline: TimelineStep[];
  created_at: Date;
  updated_at: Date;
  /** Travel Rule data (IVMS101), when the transfer or deposit carries it. */
  travel_rule?: Record<string, unknown> | null;
};

const TX_COLUMNS = `id, customer_id, project_id, environment, type, status, currency, amount, blockchain,
  to_customer_id, from_address, to_address, transaction_hash, failure_reason, metadata, timeline,
  created_at, updated_at, travel_rule, failure_code`;

export async function insertChainTransaction(db: Executor, row: ChainTransactionRow): Promise<void> {
  await db.query(
    `INSERT INTO chain_transactions (${TX_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
    [
      row.id,
      row.customer_id,
      row.project_id,
      row.environment,
      row.type,
      row.status,
      row.currency,
      row.amount,
      row.blockchain,
      row.to_customer_id,
      row.from_address,
      row.to_address,
      row.transaction_hash,
      row.failure_reason,
      row.metadata === null ? null : JSON.stringify(row.metadata),
      JSON.stringify(row.timeline),
      row.created_at,
      row.updated_at,
      row.travel_rule ? JSON.stringify(row.travel_rule) : null,
      row.failure_code ?? null,
    ],
  );
}

/** A held deposit whose confirmations are met: credited the moment it is released. */
export async function markCreditDue(db: Executor, id: string): Promise<void> {
  await db.query(`UPDATE chain_transactions SET credit_due = true WHERE id = $1`, [id]);
}

/** A customer's deposits held uncredited with their confirmations met, locked (oldest first). */
export async function lockDueDepositsOf(db: Executor, customerId: string): Promise<ChainTransactionRow[]> {
  return db.query<ChainTransactionRow>(
    `SELECT ${TX_COLUMNS} FROM chain_transactions
      WHERE customer_id = $1 AND type = 'DEPOSIT' AND status = 'PROCESSING' AND credit_due
      ORDER BY created_at, id FOR UPDATE`,
    [customerId],
  );
}

export async function creditIsDue(db: Executor, id: string): Promise<boolean> {
  const rows = await db.query<{ credit_due: boolean }>(
    `SELECT credit_due FROM chain_transactions WHERE id = $1`,
    [id],
  );
  return rows[0]?.credit_due === true;
}

/**
 * A customer's transfers to one external address since a moment, that did not fail: what counts towards
 * the Travel Rule's rolling total. Read under the customer's row lock, so it includes every transfer
 * committed before this one was decided.
 */
export async function transfersToAddressSince(
  db: Executor,
  customerId: string,
  address: string,
  since: Date,
): Promise<{ id: string; amount: bigint; at: Date }[]> {
  return db.query<{ id: string; amount: bigint; at: Date }>(
    `SELECT id, amount, created_at AS at FROM chain_transactions
      WHERE customer_id = $1 AND created_at > $3 AND type = 'TRANSFER' AND to_address = $2 AND status <> 'FAILED'
      ORDER BY created_at, id`,
    [customerId, address, since],
  );
}

/** Stores a transaction's Travel Rule data and, when it waited for it, moves it on to PROCESSING. */
export async function storeTravelRule(
  db: Executor,
  id: string,
  travelRule: Record<string, unknown>,
  at: Date,
): Promise<ChainTransactionRow> {
  const step: TimelineStep = { status: 'PROCESSING', at: at.toISOString() };
  const rows = await db.query<ChainTransactionRow>(
    `UPDATE chain_transactions
        SET travel_rule = $2, updated_at = $3,
            timeline = CASE WHEN status = 'AWAITING_TRAVEL_RULE' THEN timeline || $4::jsonb ELSE timeline END,
            status = CASE WHEN status = 'AWAITING_TRAVEL_RULE' THEN 'PROCESSING' ELSE status END
      WHERE id = $1 RETURNING ${TX_COLUMNS}`,
    [id, JSON.stringify(travelRule), at, JSON.stringify([step])],
  );
  return rows[0]!;
}

export async function findChainTransaction(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<ChainTransactionRow | undefined> {
  const rows = await db.query<ChainTransactionRow>(
    `SELECT ${TX_COLUMNS} FROM chain_transactions WHERE id = $1 AND project_id = $2 AND environment = $3`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

export async function lockChainTransaction(
  db: Executor,
  id: string,
): Promise<ChainTransactionRow | undefined> {
  const rows = await db.query<ChainTransactionRow>(
    `SELECT ${TX_COLUMNS} FROM chain_transactions WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

/** Moves to `status`, appending it to the timeline; sets the hash or the failure reason when given. */
/** The hash of the chain send carrying a transfer. */
export async function setChainTransactionHash(db: Executor, id: string, hash: string | null): Promise<void> {
  await db.query(`UPDATE chain_transactions SET transaction_hash = $2 WHERE id = $1`, [id, hash]);
}

/** A transfer nothing of which is on chain: no hash names it. */
export async function clearChainTransactionHash(db: Executor, id: string): Promise<void> {
  await db.query(`UPDATE chain_transactions SET transaction_hash = NULL WHERE id = $1`, [id]);
}

export async function updateChainTransaction(
  db: Executor,
  id: string,
  status: ChainTransactionStatus,
  at: Date,
  changes: { transactionHash?: string | null; failureReason?: string | null; failureCode?: FailureCode } = {},
): Promise<ChainTransactionRow> {
  const step: TimelineStep = { status, at: at.toISOString() };
  const appended = status === 'PROCESSING' ? '[]' : JSON.stringify([step]);
  const rows = await db.query<ChainTransactionRow>(
    `UPDATE chain_transactions SET status = $2, timeline = timeline || $3::jsonb, updated_at = $4,
            transaction_hash = coalesce($5, transaction_hash), failure_reason = coalesce($6, failure_reason),
            failure_code = coalesce($7, failure_code)
      WHERE id = $1 RETURNING ${TX_COLUMNS}`,
    [
      id,
      status,
      appended,
      at,
      changes.transactionHash ?? null,
      changes.failureReason ?? null,
      changes.failureCode ?? null,
    ],
  );
  return rows[0]!;
}

/** Reads one transfer or deposit of the tenant, coalesced with the reads made meanwhile. */
export function chainTransactionReader(
  db: Executor,
): (read: { tenant: Tenant; id: string }) => Promise<ChainTransactionRow | undefined> {
  return keyedReads(db, {
    table: 'chain_transactions',
    columns: TX_COLUMNS,
    keys: [['id', 'uuid']],
    values: (read) => [read.id],
  });
}

/**
 * The newest `limit` transfers and deposits of a partner's list (the tenant's, or one customer's, on
 * either side of a transfer), coalesced with the pages read meanwhile; the list's total comes with its
 * ramps (`transactionPageReader`).
 */
export function chainTransactionPageReader(
  db: Executor,
): (read: ListPageRead) => Promise<ChainTransactionRow[]> {
  return byListScope((ofCustomer, keyset) =>
    batchedRows<ListPageRead, ChainTransactionRow>(db, {
      sql: `SELECT r.read_index::int AS read_index, p.*
              FROM ${pageReads(keyset).unnest} WITH ORDINALITY AS r (${pageReads(keyset).columns.join(', ')}, read_index)
              CROSS JOIN LATERAL (
                SELECT ${TX_COLUMNS} FROM chain_transactions t
                 WHERE ${listPageConditions(ofCustomer, ['customer_id', 'to_customer_id'], keyset)}
                 ORDER BY t.created_at DESC, t.id DESC LIMIT r.page_limit) p`,
      params: pageReads(keyset).params,
    }),
  );
}

export async function listChainTransactions(
  db: Executor,
  scope: { projectId?: string | undefined; environment?: Environment | undefined },
  filter: ListFilter,
  limit: number,
): Promise<{ rows: ChainTransactionRow[]; total: number }> {
  // A transfer is the payer's and the payee's: a customer filter matches either side.
  const { where, params } = listConditions(scope, filter, ['customer_id', 'to_customer_id']);
  // the total counts the whole list, a keyset page's rows only those past its cursor
  const counted = filter.after
    ? listConditions(scope, { ...filter, after: undefined }, ['customer_id', 'to_customer_id'])
    : { where, params };
  const [rows, count] = await Promise.all([
    db.query<ChainTransactionRow>(
      `SELECT ${TX_COLUMNS} FROM chain_transactions WHERE ${where}
        ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1}`,
      [...params, limit],
    ),
    db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM chain_transactions WHERE ${counted.where}`,
      counted.params,
    ),
  ]);
  return { rows, total: Number(count[0]!.n) };
}
