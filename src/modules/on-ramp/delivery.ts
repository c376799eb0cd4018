/**
 * The TRANSFERRING_STABLECOIN step of an on-ramp: the stablecoin goes to the customer's wallet on the
 * chosen chain. On a simulated or node-backed chain it is a real token transfer from the treasury to the
 * customer's address, and the credit waits for its confirmations; on a chain with no node (production,
 * custodial) the credit is in the ledger only.
 */

import type { Stablecoin } from '../../core/currencies.ts';
import type { Executor } from '../../db/types.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { stablecoinCredited } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import { lockTransaction, type TransactionRow } from '../transactions/read-service.ts';
import type { DeliveryHandler } from '../wallets/send-outcome.ts';
import { enqueueSend } from '../wallets/sender.ts';
import { ensureWallets } from '../wallets/service.ts';
import { recordDeliveryHash, recordDeliverySend } from './delivery-repo.ts';
import { moveOnRamp } from './state.ts';

const tenantOf = (row: TransactionRow) => ({ projectId: row.project_id, environment: row.environment });

async function credit(tx: Executor, chains: ChainRegistry, row: TransactionRow, at: Date) {
  await postJournal(tx, {
    tenant: tenantOf(row),
    kind: 'STABLECOIN_CREDITED',
    reference: row.id,
    transactionId: row.id,
    entries: stablecoinCredited(
      row.customer_id,
      row.target_currency,
      row.target_amount!,
      row.blockchain ?? chains.config.defaultChain,
    ),
    at,
  });
  return moveOnRamp(tx, row, 'SUCCESS', at);
}

export async function deliverStablecoin(
  tx: Executor,
  chains: ChainRegistry,
  row: TransactionRow,
  at: Date,
): Promise<TransactionRow> {
  if (row.chain_send_id !== null) return row;
  const blockchain = row.blockchain ?? chains.config.defaultChain;
  const adapter = chains.get(row.environment, blockchain);
  if (adapter.mode === 'CUSTODIAL') return credit(tx, chains, row, at);
  const owner = { id: row.customer_id, project_id: row.project_id, environment: row.environment };
  const wallets = await ensureWallets(tx, chains, owner, at);
  const wallet = wallets.find((w) => w.blockchain === blockchain)!;
  const send = await enqueueSend(
    tx,
    adapter,
    {
      environment: row.environment,
      blockchain,
      purpose: 'ON_RAMP',
      transactionId: row.id,
      to: wallet.address,
      // an on-ramp's target is always a stablecoin
      currency: row.target_currency as Stablecoin,
      amount: row.target_amount!,
    },
    at,
  );
  return recordDeliverySend(
    tx,
    row.id,
    send.id,
    send.transaction_hash,
    blockchain,
    send.transaction_hash && adapter.transactionUrl(send.transaction_hash),
  );
}

export async function recordOnRampHash(tx: Executor, id: string, hash: string, url: string): Promise<void> {
  await recordDeliveryHash(tx, id, hash, url);
}

export async function finishOnRampDelivery(
  tx: Executor,
  chains: ChainRegistry,
  id: string,
  outcome: 'CONFIRMED' | 'FAILED',
  at: Date,
  reason?: string,
): Promise<void> {
  const row = await lockTransaction(tx, id);
  if (row?.status !== 'TRANSFERRING_STABLECOIN') return;
  if (outcome === 'CONFIRMED') {
    await credit(tx, chains, row, at);
    return;
  }
  await moveOnRamp(tx, row, 'FAILED', at, {
    failure_reason:
      `The stablecoin transfer to the customer's wallet failed on chain (${reason ?? 'unknown'}); ` +
      'the converted amount is held by the platform for the customer',
    failure_code: 'stablecoin_delivery_failed',
  });
}

/**
 * A delivery refused before it left (the customer's sanctions match confirmed): the on-ramp FAILS and the
 * converted stablecoin stays with the platform, blocked, as a deposit to such a customer is never credited.
 */
export async function refuseOnRampDelivery(
  tx: Executor,
  _chains: ChainRegistry,
  id: string,
  at: Date,
): Promise<void> {
  const row = await lockTransaction(tx, id);
  if (row?.status !== 'TRANSFERRING_STABLECOIN') return;
  await moveOnRamp(tx, row, 'FAILED', at, {
    failure_reason:
      'Refused by compliance: a sanctions screening match was confirmed; the stablecoin was not sent to ' +
      "the customer's wallet and the converted amount is blocked with the platform",
    failure_code: 'compliance_refused',
  });
}

/** What the send queue hands back as a delivery moves on (the on-ramp's offer, in its descriptor). */
export const deliveryHandler: DeliveryHandler = {
  submitted: recordOnRampHash,
  finished: finishOnRampDelivery,
  refused: refuseOnRampDelivery,
};
