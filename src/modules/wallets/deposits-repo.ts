/** Inbound transfers as recorded: deposits by the log that made them, and logs kept as rejected. */
import type { Blockchain } from '../../core/currencies.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { InboundTransfer } from '../../rails/chains/adapter.ts';

type Log = Omit<InboundTransfer, 'blockNumber'> & { blockNumber: bigint | null };

/** The deposit a log (in its block) was recorded as, if any. */
export function depositOfLog(
  tx: Executor,
  environment: Environment,
  blockchain: Blockchain,
  log: Log,
): Promise<{ transaction_id: string }[]> {
  return tx.query<{ transaction_id: string }>(
    `SELECT transaction_id FROM chain_deposits
      WHERE environment = $1 AND blockchain = $2 AND transaction_hash = $3 AND log_index = $4 AND block_hash = $5`,
    [environment, blockchain, log.transactionHash, log.logIndex, log.blockHash],
  );
}

export async function insertDeposit(
  tx: Executor,
  environment: Environment,
  blockchain: Blockchain,
  log: Log,
  transactionId: string,
  at: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO chain_deposits (environment, blockchain, transaction_hash, log_index, block_hash, block_number,
                                 transaction_id, seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      environment,
      blockchain,
      log.transactionHash,
      log.logIndex,
      log.blockHash,
      log.blockNumber,
      transactionId,
      at,
    ],
  );
}

/** Keeps a rejected log once per log per block; whether it is new. */
export async function insertRejectedLog(
  tx: Executor,
  environment: Environment,
  blockchain: Blockchain,
  log: InboundTransfer,
  address: string,
  reason: string,
  at: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO chain_rejected_logs (environment, blockchain, transaction_hash, log_index, block_hash,
                                      block_number, to_address, currency, amount, reason, seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [
      environment,
      blockchain,
      log.transactionHash,
      log.logIndex,
      log.blockHash,
      log.blockNumber,
      address,
      log.currency,
      log.amount.toString(),
      reason,
      at,
    ],
  );
  return rows.length > 0;
}

/** Simulated (sandbox) deposits created before `due` and not yet decided, locked, oldest first. */
export function claimSimulatedDeposits(tx: Executor, due: Date): Promise<{ id: string }[]> {
  return tx.query<{ id: string }>(
    `SELECT t.id FROM chain_transactions t
        WHERE t.type = 'DEPOSIT' AND t.status = 'PROCESSING' AND t.environment = 'sandbox' AND t.created_at <= $1
          AND NOT t.credit_due
        ORDER BY t.created_at LIMIT 50 FOR UPDATE SKIP LOCKED`,
    [due],
  );
}
