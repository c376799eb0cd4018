/**
 * What a send's progress means for the transaction it carries: a transfer's is applied here; an
 * on-ramp's delivery goes to the handler the on-ramp offers (its descriptor), handed down by the caller.
 */
import type { FailureCode } from '../../core/failure-codes.ts';
import type { Executor } from '../../db/types.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { chainSendReversed, chainSendSettled } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import type { DeliveryHandler } from '../offers.ts';
import { moveChainTransaction } from './events.ts';
import { clearChainTransactionHash, lockChainTransaction, setChainTransactionHash } from './repo.ts';
import type { SendRow } from './sends-repo.ts';

export type { DeliveryHandler };

export async function completeSend(
  tx: Executor,
  chains: ChainRegistry,
  deliveries: DeliveryHandler,
  send: SendRow,
  state: 'SUBMITTED' | 'CONFIRMED' | 'FAILED',
  at: Date,
  reason?: string,
): Promise<void> {
  if (send.purpose === 'ON_RAMP') {
    if (state === 'SUBMITTED') {
      const url = chains.get(send.environment, send.blockchain).transactionUrl(send.transaction_hash!);
      return deliveries.submitted(tx, send.transaction_id, send.transaction_hash!, url);
    }
    return deliveries.finished(tx, chains, send.transaction_id, state, at, reason);
  }
  const row = await lockChainTransaction(tx, send.transaction_id);
  if (row?.status !== 'PROCESSING') return;
  if (state === 'SUBMITTED') {
    await setChainTransactionHash(tx, row.id, send.transaction_hash);
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
  if (send.transaction_hash === null) {
    // nothing of it is on chain: the hash it was signed with names no transaction to look at
    await clearChainTransactionHash(tx, row.id);
  }
  await failTransfer(tx, chains, row, at, {
    transactionHash: send.transaction_hash,
    failureReason: `The transfer failed on chain and its amount is back in the wallet: ${reason ?? 'unknown'}`,
    failureCode: 'chain_transfer_failed',
  });
}

/** A transfer that will not settle: its reserved amount back in the wallet (a balanced reversal), FAILED. */
async function failTransfer(
  tx: Executor,
  chains: ChainRegistry,
  row: NonNullable<Awaited<ReturnType<typeof lockChainTransaction>>>,
  at: Date,
  outcome: { transactionHash?: string | null; failureReason: string; failureCode: FailureCode },
): Promise<void> {
  await postJournal(tx, {
    tenant: { projectId: row.project_id, environment: row.environment },
    kind: 'CHAIN_SEND_REVERSED',
    reference: row.id,
    transactionId: null,
    entries: chainSendReversed(row.customer_id, row.currency, row.amount, row.blockchain),
    at,
  });
  await moveChainTransaction(tx, chains, row, 'FAILED', at, outcome);
}

/**
 * A send refused before it left because its customer's sanctions match was confirmed: nothing was signed.
 * A transfer FAILS with its reserved amount back in the wallet (a balanced reversal); an on-ramp's
 * delivery goes to the on-ramp's handler. Each with its `transaction.updated` event.
 */
export async function refuseSend(
  tx: Executor,
  chains: ChainRegistry,
  deliveries: DeliveryHandler,
  send: SendRow,
  at: Date,
): Promise<void> {
  if (send.purpose === 'ON_RAMP') {
    return deliveries.refused(tx, chains, send.transaction_id, at);
  }
  const row = await lockChainTransaction(tx, send.transaction_id);
  if (row?.status !== 'PROCESSING') return;
  await failTransfer(tx, chains, row, at, {
    failureReason:
      'Refused by compliance: a sanctions screening match was confirmed; nothing was sent and the amount is back in the wallet',
    failureCode: 'compliance_refused',
  });
}
