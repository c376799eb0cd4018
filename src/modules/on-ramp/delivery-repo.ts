/** An on-ramp's delivery on its transaction row: the chain send carrying it, its hash and explorer link. */
import type { Blockchain } from '../../core/currencies.ts';
import type { Executor } from '../../db/types.ts';
import type { TransactionRow } from '../transactions/read-service.ts';

export async function recordDeliverySend(
  tx: Executor,
  id: string,
  sendId: string,
  hash: string | null,
  blockchain: Blockchain,
  url: string | null,
): Promise<TransactionRow> {
  const rows = await tx.query<TransactionRow>(
    `UPDATE transactions SET chain_send_id = $2, transaction_hash = $3, blockchain = $4, block_explorer_url = $5
      WHERE id = $1 RETURNING *`,
    [id, sendId, hash, blockchain, url],
  );
  return rows[0]!;
}

export async function recordDeliveryHash(tx: Executor, id: string, hash: string, url: string): Promise<void> {
  await tx.query(`UPDATE transactions SET transaction_hash = $2, block_explorer_url = $3 WHERE id = $1`, [
    id,
    hash,
    url,
  ]);
}
