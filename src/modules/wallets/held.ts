/**
 * Transfers and deposits held by a screening case or waiting for Travel Rule data: what their release
 * and their refusal do to the wallet, and the originator's data of a deposit. Each runs under the
 * transaction's row lock, in the caller's database transaction, with its `transaction.updated` event.
 */
import type { Config } from '../../config.ts';
import { AppError, notFound } from '../../core/errors.ts';
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { findCustomer } from '../customers/service.ts';
import { chainSendReversed } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import { holdTransaction, matchesFor, transactionHeld } from '../screening/service.ts';
import { checkTravelRule, type DepositTravelRule, inboundIvms } from '../screening/travel-rule.ts';
import { creditDeposit } from './deposits.ts';
import { moveChainTransaction, reportChainTransaction } from './events.ts';
import { presentChainTransaction } from './presenter.ts';
import {
  type ChainTransactionRow,
  creditIsDue,
  findChainTransaction,
  lockChainTransaction,
  storeTravelRule,
} from './repo.ts';
import { enqueueTransferSend } from './sender.ts';

const tenantOf = (row: ChainTransactionRow): Tenant => ({
  projectId: row.project_id,
  environment: row.environment,
});

/**
 * A hold lifted: a transfer's reserved amount is queued to be sent; a deposit is credited if the chain
 * already confirmed it (otherwise the watcher credits it at its confirmations, as any other).
 */
export async function releaseHeldTransaction(tx: Executor, chains: ChainRegistry, id: string, at: Date) {
  const row = await lockChainTransaction(tx, id);
  if (!row) throw notFound('Transaction');
  if (row.status !== 'PROCESSING') return row;
  if (row.type === 'TRANSFER') {
    const adapter = chains.get(row.environment, row.blockchain);
    await enqueueTransferSend(tx, adapter, row, at);
    await reportChainTransaction(tx, chains, { ...row, updated_at: at }, at);
    return row;
  }
  if (await creditIsDue(tx, row.id)) {
    // credited, unless its customer is on hold too (then held still) or refused
    await creditDeposit(tx, chains, row.id, at);
    const after = (await lockChainTransaction(tx, row.id))!;
    if (after.status !== 'PROCESSING') return after;
  }
  await reportChainTransaction(tx, chains, { ...row, updated_at: at }, at);
  return row;
}

/**
 * A match confirmed: a transfer FAILED with its reserved amount back in the wallet (nothing was sent); a
 * deposit FAILED, never credited (the funds stay blocked in the platform's wallet).
 */
export async function refuseHeldTransaction(tx: Executor, chains: ChainRegistry, id: string, at: Date) {
  const row = await lockChainTransaction(tx, id);
  if (!row) throw notFound('Transaction');
  if (row.status !== 'PROCESSING' && row.status !== 'AWAITING_TRAVEL_RULE') return row;
  if (row.type === 'TRANSFER') {
    await postJournal(tx, {
      tenant: tenantOf(row),
      kind: 'CHAIN_SEND_REVERSED',
      reference: row.id,
      transactionId: null,
      entries: chainSendReversed(row.customer_id, row.currency, row.amount, row.blockchain),
      at,
    });
    return moveChainTransaction(tx, chains, row, 'FAILED', at, {
      failureReason:
        'Refused by compliance: the beneficiary matches a sanctions list; the amount is back in the wallet',
    });
  }
  return moveChainTransaction(tx, chains, row, 'FAILED', at, {
    failureReason: 'Blocked by compliance: the sender matches a sanctions list; the deposit is not credited',
  });
}

/**
 * The originator's Travel Rule data for a deposit AWAITING_TRAVEL_RULE: stored as IVMS101, the originator
 * screened (a possible match holds the deposit), and the deposit moves on to PROCESSING, credited at once
 * when the chain has already confirmed it.
 */
export async function supplyDepositTravelRule(
  tx: Executor,
  deps: { chains: ChainRegistry; config: Pick<Config, 'screening'> },
  tenant: Tenant,
  id: string,
  input: DepositTravelRule,
  at: Date,
) {
  const { chains, config } = deps;
  checkTravelRule(input, '/body');
  const found = await findChainTransaction(tx, tenant, id);
  if (!found) throw notFound('Transaction');
  const row = (await lockChainTransaction(tx, id))!;
  if (row.type !== 'DEPOSIT' || row.status !== 'AWAITING_TRAVEL_RULE') {
    throw new AppError(
      'invalid_state_transition',
      `The transaction is a ${row.type} ${row.status}; only a DEPOSIT AWAITING_TRAVEL_RULE takes the originator's data`,
    );
  }
  const receiver = (await findCustomer(tx, tenant, row.customer_id))!;
  const ivms = inboundIvms(
    { name: receiver.name, type: receiver.type, taxId: receiver.tax_id, address: row.to_address! },
    row.from_address!,
    input,
    config.screening.vaspName,
  );
  const matches = await matchesFor(
    tx,
    {
      name: input.originator.name,
      kind: input.originator.type ?? 'UNKNOWN',
      birthDate: input.originator.birthDate,
      country: input.originator.country,
    },
    config.screening.threshold,
  );
  const moved = await storeTravelRule(tx, row.id, ivms, at);
  const held = await transactionHeld(tx, 'DEPOSIT', row.id);
  if (matches.length > 0 && !held) {
    await holdTransaction(
      tx,
      {
        id: row.id,
        customerId: row.customer_id,
        projectId: row.project_id,
        environment: row.environment,
        type: 'DEPOSIT',
      },
      { reason: 'NAME_MATCH', screened: { name: input.originator.name }, matches },
      at,
    );
  } else if (!held && (await creditIsDue(tx, row.id))) {
    await creditDeposit(tx, chains, row.id, at);
    const after = (await lockChainTransaction(tx, row.id))!;
    if (after.status !== 'PROCESSING') return presentChainTransaction(chains, after);
  }
  await reportChainTransaction(tx, chains, moved, at);
  return presentChainTransaction(chains, moved);
}
