/** The deposit watcher's records: how far each chain has been read to final, and deposits not yet final. */
import type { Blockchain } from '../../core/currencies.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

/** Creates the chain's cursor at `finalBlock` unless it has one. */
export async function ensureCursor(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
  finalBlock: bigint,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO chain_cursors (environment, blockchain, final_block, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [environment, blockchain, finalBlock, at],
  );
}

/** The chain's cursor, locked; none when another process is reading the chain. */
export function lockCursor(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
): Promise<{ final_block: bigint }[]> {
  return db.query<{ final_block: bigint }>(
    `SELECT final_block FROM chain_cursors WHERE environment = $1 AND blockchain = $2 FOR UPDATE SKIP LOCKED`,
    [environment, blockchain],
  );
}

/** The chain's deposits whose transfer is still open, with the block each was seen in. */
export function openDeposits(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
): Promise<{ transaction_id: string; block_hash: string; block_number: bigint | null }[]> {
  return db.query<{
    transaction_id: string;
    block_hash: string;
    block_number: bigint | null;
  }>(
    `SELECT d.transaction_id, d.block_hash, d.block_number
         FROM chain_deposits d JOIN chain_transactions t ON t.id = d.transaction_id
        WHERE d.environment = $1 AND d.blockchain = $2 AND t.status IN ('PROCESSING', 'AWAITING_TRAVEL_RULE')`,
    [environment, blockchain],
  );
}

export async function advanceCursor(
  db: Executor,
  environment: Environment,
  blockchain: Blockchain,
  finalBlock: bigint,
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE chain_cursors SET final_block = $3, updated_at = $4 WHERE environment = $1 AND blockchain = $2`,
    [environment, blockchain, finalBlock, at],
  );
}
