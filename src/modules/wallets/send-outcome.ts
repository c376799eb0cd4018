/** What a send's progress means for the transaction it carries: an on-ramp or a transfer. */
import type { Executor } from '../../db/types.ts';
import { chainSendReversed, chainSendSettled } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import type { ChainRegistry } from '../rails/chains/registry.ts';
import { finishOnRampDelivery, recordOnRampHash } from '../transactions/delivery.ts';
import { moveChainTransaction } from './events.ts';
import { lockChainTransaction } from './repo.ts';
import type { SendRow } from './sends-repo.ts';

export async function completeSend(
  tx: Executor,
  chains: ChainRegistry,
  send: SendRow,
  state: 'SUBMITTED' | 'CONFIRMED' | 'FAILED',
  at: Date,
  reason?: string,
): Promise<void> {
  if (send.purpose === 'ON_RAMP') {
    if (state === 'SUBMITTED') {
      const url = chains.get(send.environment, send.blockchain).transactionUrl(send.transaction_hash!);
      return recordOnRampHash(tx, send.transaction_id, send.transaction_hash!, url);
    }
    return finishOnRampDelivery(tx, chains, send.transaction_id, state, at, reason);
  }
  const row = await lockChainTransaction(tx, send.transaction_id);
  if (row?.status !== 'PROCESSING') return;
  if (state === 'SUBMITTED') {
    await tx.query(`UPDATE chain_transactions SET transaction_hash = $2 WHERE id = $1`, [
      row.id,
      send.transaction_hash,
    ]);
    return;
  }
  const tenant = { projectId: row.project_id, environment: row.environment };
  if (state === 'CONFIRMED') {
    await postJournal(tx, {
      tenant,
      kind: 'CHAIN_SEND_SETTLED',
      reference: row.id,
      transactionId: null,
      entries: chainSendSettled(row.currency, row.amount),
      at,
    });
    await moveChainTransaction(tx, chains, row, 'SUCCESS', at, { transactionHash: send.transaction_hash });
    return;
  }
  await postJournal(tx, {
    tenant,
    kind: 'CHAIN_SEND_REVERSED',
    reference: row.id,
    transactionId: null,
    entries: chainSendReversed(row.customer_id, row.currency, row.amount, row.blockchain),
    at,
  });
  if (send.transaction_hash === null) {
    // nothing of it is on chain: the hash it was signed with names no transaction to look at
    await tx.query(`UPDATE chain_transactions SET transaction_hash = NULL WHERE id = $1`, [row.id]);
  }
  await moveChainTransaction(tx, chains, row, 'FAILED', at, {
    transactionHash: send.transaction_hash,
    failureReason: `The transfer failed on chain and its amount is back in the wallet: ${reason ?? 'unknown'}`,
    failureCode: 'chain_transfer_failed',
  });
}
