/** SQL of the chain balance reconciliation: what the ledger says each watched address holds, and its differences. */

import type { Blockchain, Stablecoin } from '../../core/currencies.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

export type DifferenceStatus = 'OPEN' | 'CLEARED' | 'RESOLVED';

export type DifferenceRow = {
  id: string;
  environment: Environment;
  blockchain: Blockchain;
  address: string;
  currency: Stablecoin;
  customer_id: string;
  project_id: string;
  on_chain: string;
  ledger: string;
  block_number: bigint;
  status: DifferenceStatus;
  first_seen_at: Date;
  checked_at: Date;
  closed_at: Date | null;
  resolved_by: string | null;
  resolution: string | null;
};

const COLUMNS = `id, environment, blockchain, address, currency, customer_id, project_id, on_chain::text AS on_chain,
  ledger::text AS ledger, block_number, status, first_seen_at, checked_at, closed_at, resolved_by, resolution`;

const key = (address: string, currency: string) => `${address.toLowerCase()} ${currency}`;

/**
 * What the ledger says arrived at each watched address of a chain, per currency (deposits credited, less
 * those reversed, plus confirmed on-ramp deliveries), and the addresses with a movement still in flight
 * up to `final` (a deposit not yet credited, a delivery not yet confirmed), which a pass leaves alone.
 */
export async function ledgerHoldings(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
  final: bigint,
): Promise<{ held: Map<string, bigint>; unsettled: Set<string> }> {
  const [deposits, deliveries, inFlight] = await Promise.all([
    db.query<{ address: string; currency: string; amount: string }>(
      `SELECT t.to_address AS address, t.currency, sum(-e.amount)::text AS amount
         FROM chain_transactions t
         JOIN ledger_journals j ON j.reference = t.id::text AND j.kind IN ('CHAIN_DEPOSIT', 'CHAIN_DEPOSIT_REVERSED')
         JOIN ledger_entries e ON e.journal_id = j.id AND e.account = 'CUSTOMER_WALLET'
        WHERE t.environment = $1 AND t.blockchain = $2 AND t.type = 'DEPOSIT'
        GROUP BY 1, 2`,
      [environment, blockchain],
    ),
    db.query<{ address: string; currency: string; amount: string }>(
      `SELECT to_address AS address, currency, sum(amount)::text AS amount FROM chain_sends
        WHERE environment = $1 AND blockchain = $2 AND purpose = 'ON_RAMP' AND status = 'CONFIRMED'
        GROUP BY 1, 2`,
      [environment, blockchain],
    ),
    db.query<{ address: string; currency: string }>(
      `SELECT t.to_address AS address, t.currency FROM chain_transactions t
         JOIN chain_deposits d ON d.transaction_id = t.id
        WHERE t.environment = $1 AND t.blockchain = $2 AND t.type = 'DEPOSIT' AND t.status = 'PROCESSING'
          AND (d.block_number IS NULL OR d.block_number <= $3)
       UNION
       SELECT to_address, currency FROM chain_sends
        WHERE environment = $1 AND blockchain = $2 AND purpose = 'ON_RAMP' AND status IN ('QUEUED', 'SUBMITTED')`,
      [environment, blockchain, final],
    ),
  ]);
  const held = new Map<string, bigint>();
  for (const row of [...deposits, ...deliveries]) {
    const at = key(row.address, row.currency);
    held.set(at, (held.get(at) ?? 0n) + BigInt(row.amount));
  }
  return { held, unsettled: new Set(inFlight.map((row) => key(row.address, row.currency))) };
}

export const holdingKey = key;

export async function lockOpenDifference(
  db: Executor,
  at: { environment: Environment; blockchain: Blockchain; address: string; currency: Stablecoin },
): Promise<DifferenceRow | undefined> {
  const rows = await db.query<DifferenceRow>(
    `SELECT ${COLUMNS} FROM chain_balance_differences
      WHERE environment = $1 AND blockchain = $2 AND address = $3 AND currency = $4 AND status = 'OPEN'
      FOR UPDATE`,
    [at.environment, at.blockchain, at.address, at.currency],
  );
  return rows[0];
}

export async function lockDifference(db: Executor, id: string): Promise<DifferenceRow | undefined> {
  const rows = await db.query<DifferenceRow>(
    `SELECT ${COLUMNS} FROM chain_balance_differences WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export async function findDifference(db: Executor, id: string): Promise<DifferenceRow | undefined> {
  const rows = await db.query<DifferenceRow>(
    `SELECT ${COLUMNS} FROM chain_balance_differences WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** The difference an operator last accepted at an address, as on chain minus ledger (null: none). */
export async function acceptedDifference(
  db: Executor,
  at: { environment: Environment; blockchain: Blockchain; address: string; currency: Stablecoin },
): Promise<bigint | null> {
  const rows = await db.query<{ difference: string }>(
    `SELECT (on_chain - ledger)::text AS difference FROM chain_balance_differences
      WHERE environment = $1 AND blockchain = $2 AND address = $3 AND currency = $4 AND status <> 'OPEN'
      ORDER BY closed_at DESC LIMIT 1`,
    [at.environment, at.blockchain, at.address, at.currency],
  );
  const last = rows[0];
  return last ? BigInt(last.difference) : null;
}

export async function insertDifference(db: Executor, row: DifferenceRow): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO chain_balance_differences (id, environment, blockchain, address, currency, customer_id, project_id,
                                            on_chain, ledger, block_number, status, first_seen_at, checked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'OPEN', $11, $11)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [
      row.id,
      row.environment,
      row.blockchain,
      row.address,
      row.currency,
      row.customer_id,
      row.project_id,
      row.on_chain,
      row.ledger,
      row.block_number,
      row.first_seen_at,
    ],
  );
  return rows.length > 0;
}

/** New figures for an open difference; equal figures close it as CLEARED (or `closeAs`). */
export async function updateDifference(
  db: Executor,
  id: string,
  figures: { onChain: bigint; ledger: bigint; blockNumber: bigint | null },
  at: Date,
  close?: { status: 'CLEARED' | 'RESOLVED'; resolvedBy?: string; resolution?: string },
): Promise<void> {
  await db.query(
    `UPDATE chain_balance_differences
        SET on_chain = $2, ledger = $3, block_number = coalesce($4, block_number), checked_at = $5,
            status = coalesce($6, status), closed_at = CASE WHEN $6::text IS NULL THEN closed_at ELSE $5 END,
            resolved_by = coalesce($7, resolved_by), resolution = coalesce($8, resolution)
      WHERE id = $1`,
    [
      id,
      figures.onChain.toString(),
      figures.ledger.toString(),
      figures.blockNumber,
      at,
      close?.status ?? null,
      close?.resolvedBy ?? null,
      close?.resolution ?? null,
    ],
  );
}

export async function listDifferences(
  db: Executor,
  status: DifferenceStatus | null,
  limit: number,
  offset: number,
): Promise<DifferenceRow[]> {
  return db.query<DifferenceRow>(
    `SELECT ${COLUMNS} FROM chain_balance_differences WHERE ($1::text IS NULL OR status = $1)
      ORDER BY (status = 'OPEN') DESC, checked_at DESC, id LIMIT $2 OFFSET $3`,
    [status, limit, offset],
  );
}

export async function openDifferenceCounts(
  db: Executor,
): Promise<{ blockchain: Blockchain; currency: Stablecoin; n: bigint }[]> {
  return db.query(
    `SELECT blockchain, currency, count(*) AS n FROM chain_balance_differences
      WHERE status = 'OPEN' AND environment = 'production' GROUP BY 1, 2`,
  );
}

/** Credited deposits to the difference's address in its currency, newest first, with their block. */
export async function creditedDepositsTo(
  db: Executor,
  difference: DifferenceRow,
): Promise<
  {
    id: string;
    amount: bigint;
    transaction_hash: string;
    block_hash: string;
    block_number: bigint | null;
    reversed: boolean;
  }[]
> {
  return db.query(
    `SELECT t.id, t.amount, t.transaction_hash, d.block_hash, d.block_number,
            EXISTS (SELECT 1 FROM ledger_journals j WHERE j.kind = 'CHAIN_DEPOSIT_REVERSED' AND j.reference = t.id::text)
              AS reversed
       FROM chain_transactions t JOIN chain_deposits d ON d.transaction_id = t.id
      WHERE t.environment = $1 AND t.blockchain = $2 AND t.to_address = $3 AND t.currency = $4
        AND t.type = 'DEPOSIT' AND t.status = 'SUCCESS'
      ORDER BY t.created_at DESC LIMIT 50`,
    [difference.environment, difference.blockchain, difference.address, difference.currency],
  );
}

/** The chain's addresses never checked, then the least recently checked, up to `batch`. */
export function addressesToCheck(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
  batch: number,
): Promise<{ address: string; customer_id: string; project_id: string }[]> {
  return db.query<{ address: string; customer_id: string; project_id: string }>(
    `SELECT w.address, w.customer_id, w.project_id FROM wallets w
       LEFT JOIN chain_reconciled_addresses r
         ON r.environment = w.environment AND r.blockchain = w.blockchain AND r.address = w.address
      WHERE w.environment = $1 AND w.blockchain = $2
      ORDER BY r.checked_at NULLS FIRST, w.address LIMIT $3`,
    [environment, blockchain, batch],
  );
}

/** Every address of a batch was looked at now. */
export async function markChecked(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
  addresses: string[],
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO chain_reconciled_addresses (environment, blockchain, address, checked_at)
     SELECT $1, $2, unnest($3::text[]), $4
     ON CONFLICT (environment, blockchain, address) DO UPDATE SET checked_at = excluded.checked_at`,
    [environment, blockchain, addresses, at],
  );
}

/** Closes an open difference as accepted by an operator. */
export async function acceptDifference(
  db: Executor,
  id: string,
  at: Date,
  resolvedBy: string,
  resolution: string,
): Promise<void> {
  await db.query(
    `UPDATE chain_balance_differences SET status = 'RESOLVED', closed_at = $2, resolved_by = $3,
                  resolution = $4 WHERE id = $1`,
    [id, at, resolvedBy, resolution],
  );
}

/** A difference's ledger side after a correction, closed when it now matches the chain. */
export async function setDifferenceLedger(
  db: Executor,
  id: string,
  ledger: string,
  close: {
    status: DifferenceStatus;
    closedAt: Date | null;
    resolvedBy: string | null;
    resolution: string | null;
  },
): Promise<void> {
  await db.query(
    `UPDATE chain_balance_differences SET ledger = $2, status = $3, closed_at = $4, resolved_by = $5,
                  resolution = $6 WHERE id = $1`,
    [id, ledger, close.status, close.closedAt, close.resolvedBy, close.resolution],
  );
}

/** The customer whose address a difference is about. */
export function differenceCustomer(db: Executor, id: string): Promise<{ customer_id: string }[]> {
  return db.query<{ customer_id: string }>(
    `SELECT customer_id FROM chain_balance_differences WHERE id = $1`,
    [id],
  );
}

/** Takes the customer's row lock, as every movement of their balance does first. */
export async function lockCustomerRow(db: Executor, customerId: string): Promise<void> {
  await db.query(`SELECT 1 FROM customers WHERE id = $1 FOR UPDATE`, [customerId]);
}
