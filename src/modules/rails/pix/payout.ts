/**
 * The PIX payout rail: one entry point for every result the rail reports about a payment the platform
 * sent (an off-ramp's payout or a refund), from the sandbox simulation or the production provider. A
 * payout is identified by its end-to-end id; its row is locked while a result is applied, so a result
 * reported several times, at once or later, is applied once, and a result for an unknown or finished
 * payout changes nothing.
 * - COMPLETED: the BRL left the platform's PIX account; the off-ramp succeeds (a refund is done).
 * - REJECTED: nothing was paid; everything the off-ramp moved goes back to the customer's balance in
 *   its source currency (a refund's BRL goes back to the customer's BRL balance).
 * - RETURNED: the receiving bank sent a completed off-ramp's PIX back; the BRL lands in the customer's
 *   BRL balance.
 */
import type { Executor } from '../../../db/types.ts';
import type { Environment } from '../../../lib/environment.ts';
import { payoutReturned, payoutSent, refundReleased } from '../../ledger/off-ramp-postings.ts';
import { postJournal, releaseEntries } from '../../ledger/service.ts';
import { refundSettled } from '../../transactions/refund-state.ts';
import { lockTransaction, type TransactionRow, tenantOf } from '../../transactions/service.ts';
import { transitionTransaction } from '../../transactions/transition.ts';
import { lockPayout, type PayoutRow, setPayoutStatus } from './payout-repo.ts';

export type PayoutResult =
  | { status: 'COMPLETED' }
  | { status: 'REJECTED'; reason: string }
  | { status: 'RETURNED'; reason: string };

export type PayoutOutcome = 'APPLIED' | 'DUPLICATE' | 'UNKNOWN';

/** What the rail needs to send one payment. */
export type PayoutOrder = {
  endToEndId: string;
  kind: PayoutRow['kind'];
  /** BRL cents. */
  amount: bigint;
  /** OFF_RAMP: the receiving PIX key and its holder. */
  destination: { keyType: string; keyValue: string; name: string; taxId: string } | null;
  /** REFUND: the deposit sent back. */
  refundOf: string | null;
  /** The transaction's own source amount, as the partner sent it. */
  source: { currency: string; amount: bigint; scale: number };
};

/** A rail either settles the payment at once (sandbox), accepts it for a later result, or cannot take it now. */
export type SubmitAnswer = { result: PayoutResult } | { accepted: true } | { retry: string };

/** What a rail says of a payment it accepted: settled, still under way, never heard of, or no answer now. */
export type StatusAnswer =
  | { result: PayoutResult }
  | { pending: true }
  | { unknown: true }
  | { retry: string };

export type PayoutRail = {
  submit(order: PayoutOrder): Promise<SubmitAnswer>;
  /** Asks for the result of a payment the rail accepted and has not reported on (rails that report later). */
  status?(endToEndId: string): Promise<StatusAnswer>;
};

const isOpen = (payout: PayoutRow) => payout.status === 'PENDING' || payout.status === 'SUBMITTED';

async function completed(tx: Executor, payout: PayoutRow, row: TransactionRow, at: Date) {
  await postJournal(tx, {
    tenant: tenantOf(row),
    kind: 'PAYOUT_SENT',
    reference: payout.end_to_end_id,
    transactionId: row.id,
    entries: payoutSent(payout.amount),
    at,
  });
  await setPayoutStatus(tx, payout.end_to_end_id, 'COMPLETED', null, at);
  if (payout.kind === 'OFF_RAMP') await transitionTransaction(tx, row, 'SUCCESS', at);
  else await refundSettled(tx, row, null, at);
}

async function rejected(tx: Executor, payout: PayoutRow, row: TransactionRow, reason: string, at: Date) {
  await setPayoutStatus(tx, payout.end_to_end_id, 'REJECTED', reason, at);
  if (payout.kind === 'REFUND') {
    await postJournal(tx, {
      tenant: tenantOf(row),
      kind: 'REFUND_RELEASED',
      reference: payout.end_to_end_id,
      transactionId: row.id,
      entries: refundReleased(row.customer_id, payout.amount),
      at,
    });
    await refundSettled(tx, row, reason, at);
    return;
  }
  await postJournal(tx, {
    tenant: tenantOf(row),
    kind: 'OFF_RAMP_RELEASED',
    reference: row.id,
    transactionId: row.id,
    entries: await releaseEntries(tx, row.id),
    at,
  });
  await transitionTransaction(tx, row, 'FAILED', at, {
    failure_reason: `The PIX payment was rejected: ${reason}. The reserve went back to the balance`,
    failure_code: 'payout_rejected',
  });
}

async function returned(tx: Executor, payout: PayoutRow, row: TransactionRow, reason: string, at: Date) {
  await postJournal(tx, {
    tenant: tenantOf(row),
    kind: 'PAYOUT_RETURNED',
    reference: payout.end_to_end_id,
    transactionId: row.id,
    entries: payoutReturned(row.customer_id, payout.amount),
    at,
  });
  await setPayoutStatus(tx, payout.end_to_end_id, 'RETURNED', reason, at);
  await transitionTransaction(tx, row, 'RETURNED', at, { return_reason: reason });
}

/** Applies one reported result in the caller's transaction. */
export async function applyPayoutResult(
  tx: Executor,
  environment: Environment,
  endToEndId: string,
  result: PayoutResult,
  at: Date,
): Promise<PayoutOutcome> {
  const payout = await lockPayout(tx, environment, endToEndId);
  if (!payout) return 'UNKNOWN';
  const row = (await lockTransaction(tx, payout.transaction_id))!;
  switch (result.status) {
    case 'COMPLETED':
      if (!isOpen(payout)) return 'DUPLICATE';
      await completed(tx, payout, row, at);
      return 'APPLIED';
    case 'REJECTED':
      if (!isOpen(payout)) return 'DUPLICATE';
      await rejected(tx, payout, row, result.reason, at);
      return 'APPLIED';
    case 'RETURNED':
      if (payout.kind !== 'OFF_RAMP' || payout.status !== 'COMPLETED' || row.status !== 'SUCCESS') {
        return 'DUPLICATE';
      }
      await returned(tx, payout, row, result.reason, at);
      return 'APPLIED';
  }
}
