/** SQL of the outbound send queue and of the one-sender-per-address rows that hand out nonces. */

import type { Blockchain, Stablecoin } from '../../core/currencies.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { SendFees } from '../../rails/chains/adapter.ts';

export type SendPurpose = 'ON_RAMP' | 'TRANSFER';
export type SendStatus = 'QUEUED' | 'SUBMITTED' | 'CONFIRMED' | 'FAILED';

export type SendRow = {
  id: string;
  environment: Environment;
  blockchain: Blockchain;
  purpose: SendPurpose;
  transaction_id: string;
  from_address: string;
  signer_index: number;
  to_address: string;
  currency: Stablecoin;
  amount: bigint;
  status: SendStatus;
  nonce: bigint | null;
  transaction_hash: string | null;
  raw_transaction: string | null;
  submitted_at: Date | null;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  max_fee_per_gas?: bigint | null;
  max_priority_fee_per_gas?: bigint | null;
  nonce_taken_block?: bigint | null;
};

const COLUMNS = `id, environment, blockchain, purpose, transaction_id, from_address, signer_index, to_address,
  currency, amount, status, nonce, transaction_hash, raw_transaction, submitted_at, failure_reason,
  created_at, updated_at`;
const READ_COLUMNS = `${COLUMNS}, max_fee_per_gas, max_priority_fee_per_gas, nonce_taken_block`;
/** The same columns read from `chain_sends s` in a join. */
const READ_COLUMNS_OF_S = READ_COLUMNS.split(',')
  .map((column) => `s.${column.trim()}`)
  .join(', ');
/** Joins a send `s` to the transaction whose money it moves: `COALESCE(t.customer_id, c.customer_id)` is its customer. */
const SEND_CUSTOMER = `LEFT JOIN transactions t ON s.purpose = 'ON_RAMP' AND t.id = s.transaction_id
       LEFT JOIN chain_transactions c ON s.purpose = 'TRANSFER' AND c.id = s.transaction_id`;

export async function insertSend(db: Executor, row: SendRow): Promise<void> {
  await db.query(
    `INSERT INTO chain_sends (${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
    [
      row.id,
      row.environment,
      row.blockchain,
      row.purpose,
      row.transaction_id,
      row.from_address,
      row.signer_index,
      row.to_address,
      row.currency,
      row.amount,
      row.status,
      row.nonce,
      row.transaction_hash,
      row.raw_transaction,
      row.submitted_at,
      row.failure_reason,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function ensureSender(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
  address: string,
): Promise<void> {
  await db.query(
    `INSERT INTO chain_senders (environment, blockchain, address) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [environment, blockchain, address],
  );
}

export type SenderRow = {
  environment: Environment;
  blockchain: Blockchain;
  address: string;
  next_nonce: bigint | null;
};

/**
 * One sending address with queued sends (not held by a compliance hold), locked; another signer skips it
 * and takes the next.
 */
export async function claimSender(db: Executor): Promise<SenderRow | undefined> {
  const rows = await db.query<SenderRow>(
    `SELECT s.environment, s.blockchain, s.address, s.next_nonce
       FROM chain_senders s
      WHERE EXISTS (SELECT 1 FROM chain_sends q
                     WHERE q.status = 'QUEUED' AND q.held_since IS NULL AND q.environment = s.environment
                       AND q.blockchain = s.blockchain AND q.from_address = s.address)
      LIMIT 1
        FOR UPDATE SKIP LOCKED`,
  );
  return rows[0];
}

export async function setNextNonce(db: Executor, sender: SenderRow, nonce: bigint): Promise<void> {
  await db.query(
    `UPDATE chain_senders SET next_nonce = $4 WHERE environment = $1 AND blockchain = $2 AND address = $3`,
    [sender.environment, sender.blockchain, sender.address, nonce],
  );
}

/** The sender's queued sends, oldest first, locked; those a compliance hold stopped are passed by. */
export async function queuedSendsOf(db: Executor, sender: SenderRow, limit: number): Promise<SendRow[]> {
  return db.query<SendRow>(
    `SELECT ${READ_COLUMNS} FROM chain_sends
      WHERE status = 'QUEUED' AND held_since IS NULL
        AND environment = $1 AND blockchain = $2 AND from_address = $3
      ORDER BY created_at, id LIMIT $4 FOR UPDATE`,
    [sender.environment, sender.blockchain, sender.address, limit],
  );
}

/** Submitted sends to look at, oldest look first, locked and skipped by other workers. */
export async function claimSubmitted(db: Executor, limit: number): Promise<SendRow[]> {
  return db.query<SendRow>(
    `SELECT ${READ_COLUMNS} FROM chain_sends WHERE status = 'SUBMITTED'
      ORDER BY updated_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
}

export async function lockSend(db: Executor, id: string): Promise<SendRow | undefined> {
  const rows = await db.query<SendRow>(`SELECT ${READ_COLUMNS} FROM chain_sends WHERE id = $1 FOR UPDATE`, [
    id,
  ]);
  return rows[0];
}

export type SignedAttempt = { hash: string; raw: string; fees: SendFees };

async function insertAttempt(db: Executor, id: string, signed: SignedAttempt, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO chain_send_attempts (send_id, transaction_hash, raw_transaction, max_fee_per_gas,
                                      max_priority_fee_per_gas, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, signed.hash, signed.raw, signed.fees.maxFeePerGas, signed.fees.maxPriorityFeePerGas, at],
  );
}

export async function markSubmitted(
  db: Executor,
  id: string,
  signed: SignedAttempt & { nonce: bigint },
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE chain_sends SET status = 'SUBMITTED', nonce = $2, transaction_hash = $3, raw_transaction = $4,
            submitted_at = $5, updated_at = $5, max_fee_per_gas = $6, max_priority_fee_per_gas = $7
      WHERE id = $1`,
    [
      id,
      signed.nonce,
      signed.hash,
      signed.raw,
      at,
      signed.fees.maxFeePerGas,
      signed.fees.maxPriorityFeePerGas,
    ],
  );
  await insertAttempt(db, id, signed, at);
}

/** A replacement signed with the send's nonce and higher fees becomes the one broadcast from now on. */
export async function markReplaced(db: Executor, id: string, signed: SignedAttempt, at: Date): Promise<void> {
  await db.query(
    `UPDATE chain_sends SET transaction_hash = $2, raw_transaction = $3, max_fee_per_gas = $4,
            max_priority_fee_per_gas = $5, updated_at = $6 WHERE id = $1`,
    [id, signed.hash, signed.raw, signed.fees.maxFeePerGas, signed.fees.maxPriorityFeePerGas, at],
  );
  await insertAttempt(db, id, signed, at);
}

/** Every transaction hash signed for a send, the newest first (one of them may be the one mined). */
export async function attemptHashes(db: Executor, send: SendRow): Promise<string[]> {
  const rows = await db.query<{ transaction_hash: string }>(
    `SELECT transaction_hash FROM chain_send_attempts WHERE send_id = $1 ORDER BY created_at DESC`,
    [send.id],
  );
  const hashes = rows.map((row) => row.transaction_hash);
  if (send.transaction_hash && !hashes.includes(send.transaction_hash)) hashes.unshift(send.transaction_hash);
  return hashes;
}

/** Where the send's nonce was first seen taken by another transaction (null: it is not, or no longer). */
export async function setNonceTaken(db: Executor, id: string, block: bigint | null): Promise<void> {
  await db.query(`UPDATE chain_sends SET nonce_taken_block = $2 WHERE id = $1`, [id, block]);
}

/** Points the send at the transaction of its nonce that the chain mined. */
export async function setSendHash(db: Executor, id: string, hash: string): Promise<void> {
  await db.query(`UPDATE chain_sends SET transaction_hash = $2 WHERE id = $1`, [id, hash]);
}

export async function markSend(
  db: Executor,
  id: string,
  status: 'CONFIRMED' | 'FAILED',
  at: Date,
  failureReason: string | null = null,
): Promise<void> {
  await db.query(
    `UPDATE chain_sends SET status = $2, updated_at = $3, failure_reason = $4, held_since = NULL WHERE id = $1`,
    [id, status, at, failureReason],
  );
}

/**
 * Whose money each send moves: the customer of the on-ramp it delivers, or of the transfer it carries.
 */
export async function sendCustomers(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ id: string; customer_id: string }>(
    `SELECT s.id, COALESCE(t.customer_id, c.customer_id) AS customer_id
       FROM chain_sends s
       ${SEND_CUSTOMER}
      WHERE s.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.customer_id]));
}

/** A queued send stopped by a compliance hold: passed by, never signed, until the case is decided. */
export async function holdSend(db: Executor, id: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE chain_sends SET held_since = $2, updated_at = $2 WHERE id = $1 AND status = 'QUEUED'`,
    [id, at],
  );
}

/** The held sends of a customer's on-ramps and transfers, locked, for a decision on its case. */
export async function lockHeldSendsOf(db: Executor, customerId: string): Promise<SendRow[]> {
  return db.query<SendRow>(
    `SELECT ${READ_COLUMNS_OF_S}
       FROM chain_sends s
       ${SEND_CUSTOMER}
      WHERE s.held_since IS NOT NULL AND s.status = 'QUEUED'
        AND COALESCE(t.customer_id, c.customer_id) = $1
      ORDER BY s.id FOR UPDATE OF s`,
    [customerId],
  );
}

/** A held send whose hold was lifted: queued again, signed on the signer's next pass (which looks again). */
export async function releaseHeldSend(db: Executor, id: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE chain_sends SET held_since = NULL, updated_at = $2 WHERE id = $1 AND status = 'QUEUED'`,
    [id, at],
  );
}

export async function touchSend(db: Executor, id: string, at: Date): Promise<void> {
  await db.query(`UPDATE chain_sends SET updated_at = $2 WHERE id = $1`, [id, at]);
}

/** Whether a hash is one of Ponte's own on-ramp deliveries (the watcher does not credit those twice). */
export async function isOnRampDelivery(db: Executor, blockchain: Blockchain, hash: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM chain_sends WHERE blockchain = $1 AND lower(transaction_hash) = lower($2) AND purpose = 'ON_RAMP'`,
    [blockchain, hash],
  );
  return rows.length > 0;
}

/** A send's status, read without a lock. */
export function sendStatus(db: Executor, id: string): Promise<{ status: string }[]> {
  return db.query<{ status: string }>(`SELECT status FROM chain_sends WHERE id = $1`, [id]);
}
