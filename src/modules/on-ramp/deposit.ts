/**
 * A deposit received: one entry point for every payment the PIX rail reports, from the sandbox
 * simulation or the production PSP. A payment is identified by its end-to-end id and recorded
 * once; it is matched to its charge by txid.
 * - The charge is waiting and has not expired: the deposit is booked and the transaction moves to
 *   TRANSFERRING_FIAT; an amount other than the one requested then FAILS it, the BRL held for refund.
 * - The charge expired (even if the sweeper has not got to it yet): it becomes EXPIRED and the money is
 *   booked as held for refund. So is a payment for a charge that is no longer waiting (paid twice).
 * - No charge has the txid: recorded as unmatched for operations to return.
 * Money that arrived is always in the ledger, owed to the customer, whatever happens to the charge.
 */

import { formatAmount } from '../../core/money.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { ReceivedFunds } from '../../rails/fiat-rail.ts';
import { depositReceived } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import type { SettlementDeps } from '../transactions/in-flight.ts';
import { lockTransactionByTxid, type TransactionRow } from '../transactions/read-service.ts';
import { type DepositOutcome, insertDepositOnce } from './deposit-repo.ts';
import { type StepDeps, settleOnRamp } from './settlement.ts';
import { moveOnRamp } from './state.ts';

export type PixPayment = {
  endToEndId: string;
  txid: string;
  /** Cents of BRL. */
  amount: bigint;
  paidAt: Date;
  /** The payment as the rail reported it. */
  payload: unknown;
};

export type DepositResult = {
  outcome: DepositOutcome | 'DUPLICATE';
  transactionId: string | null;
};

function decide(row: TransactionRow | undefined, now: Date): DepositOutcome {
  if (!row) return 'UNMATCHED';
  return row.status === 'AWAITING_FUNDS' && now < row.expires_at! ? 'APPLIED' : 'HELD_FOR_REFUND';
}

async function apply(tx: Executor, row: TransactionRow, payment: PixPayment, now: Date): Promise<void> {
  const funded = await moveOnRamp(tx, row, 'TRANSFERRING_FIAT', now, {
    deposit_amount: payment.amount,
    deposit_end_to_end_id: payment.endToEndId,
    deposited_at: payment.paidAt,
  });
  if (payment.amount !== row.amount) {
    await moveOnRamp(tx, funded, 'FAILED', now, {
      failure_reason:
        `The deposit of ${formatAmount(payment.amount)} BRL differs from the requested ` +
        `${formatAmount(row.amount)} BRL; it is held for refund`,
      failure_code: 'deposit_amount_mismatch',
    });
  }
}

/** Receives one reported payment in the caller's transaction. */
export async function receivePixPayment(
  tx: Executor,
  environment: Environment,
  payment: PixPayment,
  now: Date,
): Promise<DepositResult> {
  const row = await lockTransactionByTxid(tx, environment, payment.txid);
  const outcome = decide(row, now);
  const recorded = await insertDepositOnce(tx, {
    end_to_end_id: payment.endToEndId,
    environment,
    txid: payment.txid,
    transaction_id: row?.id ?? null,
    amount: payment.amount,
    paid_at: payment.paidAt,
    outcome,
    payload: payment.payload,
    received_at: now,
  });
  if (!recorded) return { outcome: 'DUPLICATE', transactionId: row?.id ?? null };
  if (!row) return { outcome, transactionId: null };

  await postJournal(tx, {
    tenant: { projectId: row.project_id, environment: row.environment },
    kind: 'DEPOSIT_RECEIVED',
    reference: payment.endToEndId,
    transactionId: row.id,
    entries: depositReceived(row.customer_id, payment.amount),
    at: now,
  });
  if (outcome === 'APPLIED') await apply(tx, row, payment, now);
  else if (row.status === 'AWAITING_FUNDS') {
    await moveOnRamp(tx, row, 'EXPIRED', now, {
      failure_reason: `The deposit arrived after the charge expired at ${row.expires_at!.toISOString()}; it is held for refund`,
      failure_code: 'deposit_after_expiry',
    });
  }
  return { outcome, transactionId: row.id };
}

/**
 * A deposit the provider confirmed the account received, booked against its collection (a PIX charge's
 * txid) exactly once, as the sandbox's simulated deposits are, and carried on by settlement.
 */
export async function applyDepositReceived(
  deps: SettlementDeps & StepDeps,
  environment: Environment,
  funds: ReceivedFunds,
): Promise<void> {
  const { db, clock } = deps;
  const result = await db.transaction((tx) =>
    receivePixPayment(
      tx,
      environment,
      {
        endToEndId: funds.reference,
        txid: funds.collection ?? '',
        amount: funds.amount,
        paidAt: funds.at,
        payload: funds.payload,
      },
      clock(),
    ),
  );
  if (result.outcome === 'APPLIED' && result.transactionId) await settleOnRamp(deps, result.transactionId);
}

/** The deposit handler a rail's intake calls (`applyDepositReceived` with its dependencies). */
export function depositHandler(deps: SettlementDeps & StepDeps) {
  return (environment: Environment, funds: ReceivedFunds) => applyDepositReceived(deps, environment, funds);
}
