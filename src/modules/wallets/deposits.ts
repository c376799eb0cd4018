/**
 * Inbound stablecoin: a token transfer to a customer's address becomes a DEPOSIT transaction when it is
 * first seen (PROCESSING), credited to that wallet once the chain has confirmed it (SUCCESS), or FAILED
 * when a reorganisation removed it before that. The chain_deposits row (one per log per block) makes
 * seeing a log again change nothing; the journal's unique reference makes crediting twice impossible.
 */
import type { ScreeningConfig } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Blockchain } from '../../core/currencies.ts';
import { newId } from '../../core/ids.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { InboundTransfer } from '../../rails/chains/adapter.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { chainDeposit } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import {
  type CaseRow,
  type HoldAtSend,
  holdsAtSend,
  holdTransaction,
  listedAddress,
  transactionHeld,
} from '../screening/service.ts';
import { reachesThreshold } from '../screening/travel-rule.ts';
import { claimSimulatedDeposits, depositOfLog, insertDeposit, insertRejectedLog } from './deposits-repo.ts';
import { createChainTransaction, moveChainTransaction } from './events.ts';
import {
  type ChainTransactionRow,
  lockChainTransaction,
  lockDueDepositsOf,
  markCreditDue,
  walletByAddress,
} from './repo.ts';

/** The largest amount the ledger holds in one entry (PostgreSQL bigint). */
export const MAX_AMOUNT = 2n ** 63n - 1n;

/** Records a log seen on chain; returns its DEPOSIT transaction id (null: not to a customer's wallet). */
export async function recordInbound(
  tx: Executor,
  chains: ChainRegistry,
  environment: Environment,
  blockchain: Blockchain,
  log: Omit<InboundTransfer, 'blockNumber'> & { blockNumber: bigint | null },
  at: Date,
  screening: Pick<ScreeningConfig, 'travelRuleThreshold'>,
): Promise<string | null> {
  const seen = await depositOfLog(tx, environment, blockchain, log);
  if (seen[0]) return seen[0].transaction_id;
  const wallet = await walletByAddress(tx, environment, blockchain, log.to);
  if (!wallet) return null;
  // at or above the Travel Rule threshold, the deposit waits for its originator's data before it is credited
  const status = reachesThreshold(log.amount, screening.travelRuleThreshold)
    ? 'AWAITING_TRAVEL_RULE'
    : 'PROCESSING';
  const row: ChainTransactionRow = {
    id: newId(),
    customer_id: wallet.customer_id,
    project_id: wallet.project_id,
    environment,
    type: 'DEPOSIT',
    status,
    currency: log.currency,
    amount: log.amount,
    blockchain,
    to_customer_id: null,
    from_address: log.from,
    to_address: wallet.address,
    transaction_hash: log.transactionHash,
    failure_reason: null,
    metadata: null,
    timeline: [{ status, at: at.toISOString() }],
    created_at: at,
    updated_at: at,
  };
  await createChainTransaction(tx, chains, row);
  // from an address on a sanctions list: held for review, never credited before an operator clears it
  const listed = await listedAddress(tx, log.from);
  if (listed.length > 0) {
    await holdTransaction(
      tx,
      { id: row.id, customerId: row.customer_id, projectId: row.project_id, environment, type: 'DEPOSIT' },
      {
        reason: 'ADDRESS_MATCH',
        screened: { address: log.from, blockchain },
        matches: listed.map((entry) => ({
          entryId: entry.entryId,
          versionId: entry.versionId,
          source: entry.source,
          sourceUid: entry.sourceUid,
          primaryName: entry.primaryName,
          matchedName: `${entry.currency} ${entry.address}`,
          score: 1,
          nameScore: 1,
          factors: ['listed address'],
        })),
      },
      at,
    );
  }
  await insertDeposit(tx, environment, blockchain, log, row.id, at);
  return row.id;
}

/**
 * Keeps a log that cannot become a deposit, with its reason, once per log per block; whether it is new.
 * Only logs to a customer's address are kept: anything else was never a deposit.
 */
export async function rejectInbound(
  tx: Executor,
  environment: Environment,
  blockchain: Blockchain,
  log: InboundTransfer,
  reason: string,
  at: Date,
): Promise<boolean> {
  const wallet = await walletByAddress(tx, environment, blockchain, log.to);
  if (!wallet) return false;
  return insertRejectedLog(tx, environment, blockchain, log, wallet.address, reason, at);
}

/**
 * Credits a PROCESSING deposit to its wallet; a deposit already decided is left alone. A deposit waiting
 * for Travel Rule data or held by a screening case is marked due instead, and credited on its release.
 */
export async function creditDeposit(
  tx: Executor,
  chains: ChainRegistry,
  id: string,
  at: Date,
): Promise<boolean> {
  const row = await lockChainTransaction(tx, id);
  const receiver = row?.status === 'PROCESSING' ? await receiverHold(tx, row.customer_id) : 'FREE';
  if (row && receiver === 'REFUSED') {
    await refuseForReceiver(tx, chains, row, at);
    return false;
  }
  if (
    row?.status === 'AWAITING_TRAVEL_RULE' ||
    (row?.status === 'PROCESSING' && (receiver === 'HELD' || (await transactionHeld(tx, 'DEPOSIT', id))))
  ) {
    await markCreditDue(tx, id);
    return false;
  }
  if (row?.status !== 'PROCESSING') return false;
  await postJournal(tx, {
    tenant: { projectId: row.project_id, environment: row.environment },
    kind: 'CHAIN_DEPOSIT',
    reference: row.id,
    transactionId: null,
    entries: chainDeposit(row.customer_id, row.currency, row.amount, row.blockchain),
    at,
  });
  await moveChainTransaction(tx, chains, row, 'SUCCESS', at);
  return true;
}

/**
 * Whether the receiving customer is on compliance hold (or its match confirmed): its deposit is then held
 * uncredited, as one from a listed address is, until the customer's case is decided. Asked under the
 * customer's shared row lock, so a case opened at the same moment is seen.
 */
export async function receiverHold(tx: Executor, customerId: string): Promise<HoldAtSend['state']> {
  const { holdOf } = await holdsAtSend(tx, [customerId]);
  return holdOf({ customerId }).state;
}

/** A deposit to a customer whose match was confirmed: FAILED, never credited (the funds stay blocked). */
async function refuseForReceiver(tx: Executor, chains: ChainRegistry, row: ChainTransactionRow, at: Date) {
  await moveChainTransaction(tx, chains, row, 'FAILED', at, {
    failureReason:
      "Blocked by compliance: the receiving customer's sanctions screening match was confirmed; the deposit is not credited",
    failureCode: 'compliance_refused',
  });
}

/**
 * A decided hold on a customer (or one of its parties): its deposits held uncredited for it are credited
 * (CLEARED, once nothing else holds them; a deposit the chain has not yet confirmed is credited at its
 * confirmations) or FAILED, never credited (CONFIRMED). A deposit its own case holds waits for that case.
 */
export async function decideHeldDeposits(
  tx: Executor,
  chains: ChainRegistry,
  decided: Pick<CaseRow, 'subject_type' | 'customer_id'>,
  at: Date,
): Promise<void> {
  if (decided.subject_type !== 'CUSTOMER' && decided.subject_type !== 'ASSOCIATED_PARTY') return;
  for (const row of await lockDueDepositsOf(tx, decided.customer_id)) {
    if (await transactionHeld(tx, 'DEPOSIT', row.id)) continue;
    // credited once nothing else holds it; refused when the match was confirmed
    await creditDeposit(tx, chains, row.id, at);
  }
}

/** A deposit a reorganisation removed before its confirmations: FAILED, nothing credited. */
export async function dropDeposit(
  tx: Executor,
  chains: ChainRegistry,
  id: string,
  confirmations: number,
  at: Date,
): Promise<boolean> {
  const row = await lockChainTransaction(tx, id);
  if (row?.status !== 'PROCESSING' && row?.status !== 'AWAITING_TRAVEL_RULE') return false;
  await moveChainTransaction(tx, chains, row, 'FAILED', at, {
    failureReason: `A chain reorganisation removed the transfer before its ${confirmations} confirmations; nothing was credited`,
    failureCode: 'chain_reorganized',
  });
  return true;
}

/** Sandbox: credits simulated deposits whose confirmation delay has passed. */
export async function confirmSimulatedDeposits(deps: {
  db: Database;
  chains: ChainRegistry;
  clock: Clock;
}): Promise<number> {
  const { db, chains, clock } = deps;
  const due = new Date(clock().getTime() - chains.config.sandboxConfirmationMs);
  return db.transaction(async (tx) => {
    const rows = await claimSimulatedDeposits(tx, due);
    let credited = 0;
    for (const row of rows) if (await creditDeposit(tx, chains, row.id, clock())) credited++;
    return credited;
  });
}
