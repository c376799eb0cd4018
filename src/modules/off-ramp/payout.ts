/**
 * The result of a payout: one entry point for every result a fiat rail reports about a payment the
 * platform sent (an off-ramp's payout or a refund), over PIX (the sandbox simulation or the production
 * PSP) or a US bank (ACH, wire). A payout is identified by its key; its row is locked while a result is
 * applied, so a result reported several times, at once or later, is applied once, and a result for an
 * unknown or finished payout changes nothing.
 * - COMPLETED: the fiat left the platform's account; the off-ramp succeeds (a refund is done).
 * - REJECTED: nothing was paid; everything the off-ramp moved goes back to the customer's balance in
 *   its source currency (a refund's BRL goes back to the customer's BRL balance).
 * - RETURNED: the receiving bank sent a completed off-ramp's payment back (a PIX devolução; an ACH
 *   return: `failureCode` ach_returned, its Nacha code the `returnCode`; a wire reversal: wire_reversed);
 *   the fiat lands in the customer's balance of that currency. A return reported while the payment still
 *   waited for its settlement (an ACH returned before Increase reported it settled) completes it first.
 */
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { PayoutResult } from '../../rails/fiat-rail.ts';
import { payoutReturned, payoutSent, refundReleased } from '../ledger/off-ramp-postings.ts';
import { postJournal, releaseEntries } from '../ledger/service.ts';
import { lockTransaction, type TransactionRow, tenantOf } from '../transactions/read-service.ts';
import { lockPayout, type PayoutRow, recordSendReturn, setPayoutStatus } from './payout-repo.ts';
import { refundSettled } from './refund-state.ts';
import { moveOffRamp } from './state.ts';

export type PayoutOutcome = 'APPLIED' | 'DUPLICATE' | 'UNKNOWN';

/**
 * One amount the receiving bank gave back on a completed off-ramp's send, booked once (by its id): the
 * BRL lands in the customer's BRL balance. The off-ramp becomes RETURNED once what came back adds up to
 * what was sent; a return reported before the send's completion is booked after it (the PSP's record
 * carries both, and the completion is applied first).
 */
export async function applySendReturn(
  tx: Executor,
  environment: Environment,
  key: string,
  part: { id: string; amount: bigint; at: Date | null },
  at: Date,
): Promise<PayoutOutcome> {
  const payout = await lockPayout(tx, environment, key);
  if (!payout) return 'UNKNOWN';
  if (payout.kind !== 'OFF_RAMP' || (payout.status !== 'COMPLETED' && payout.status !== 'RETURNED')) {
    return 'DUPLICATE';
  }
  const row = (await lockTransaction(tx, payout.transaction_id))!;
  const total = await recordSendReturn(tx, key, part, at);
  if (total === null) return 'DUPLICATE';
  if (total > payout.amount) throw new Error(`returns of ${key} exceed what was sent`);
  await postJournal(tx, {
    tenant: tenantOf(row),
    kind: 'PAYOUT_RETURNED',
    reference: `${payout.end_to_end_id}:${part.id}`,
    transactionId: row.id,
    entries: payoutReturned(row.customer_id, part.amount, payout.currency),
    at,
  });
  if (total === payout.amount && row.status === 'SUCCESS') {
    const reason = 'returned by the receiving institution';
    await setPayoutStatus(tx, payout.end_to_end_id, 'RETURNED', reason, at);
    await moveOffRamp(tx, row, 'RETURNED', at, { return_reason: reason });
  }
  return 'APPLIED';
}

const isOpen = (payout: PayoutRow) => payout.status === 'PENDING' || payout.status === 'SUBMITTED';

async function completed(tx: Executor, payout: PayoutRow, row: TransactionRow, at: Date) {
  await postJournal(tx, {
    tenant: tenantOf(row),
    kind: 'PAYOUT_SENT',
    reference: payout.end_to_end_id,
    transactionId: row.id,
    entries: payoutSent(payout.amount, payout.currency),
    at,
  });
  await setPayoutStatus(tx, payout.end_to_end_id, 'COMPLETED', null, at);
  if (payout.kind === 'OFF_RAMP') return moveOffRamp(tx, row, 'SUCCESS', at);
  await refundSettled(tx, row, null, at);
  return row;
}

/** Why an off-ramp whose payout was not made FAILED: the rail's rejection, or a compliance refusal. */
type NotPaid = { failureReason: string; failureCode: 'payout_rejected' | 'compliance_refused' };

const PAYMENT_NAME: Record<PayoutRow['rail'], string> = {
  PIX: 'The PIX payment',
  ACH: 'The ACH transfer',
  WIRE: 'The wire transfer',
};

const railRejection = (rail: PayoutRow['rail'], reason: string): NotPaid => ({
  failureReason: `${PAYMENT_NAME[rail]} was rejected: ${reason}. The reserve went back to the balance`,
  failureCode: 'payout_rejected',
});

async function rejected(
  tx: Executor,
  payout: PayoutRow,
  row: TransactionRow,
  reason: string,
  at: Date,
  failure: NotPaid = railRejection(payout.rail, reason),
) {
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
  await moveOffRamp(tx, row, 'FAILED', at, {
    failure_reason: failure.failureReason,
    failure_code: failure.failureCode,
  });
}

export const COMPLIANCE_REFUSAL =
  'refused by compliance: a sanctions screening match was confirmed; nothing was sent';

/**
 * A payout a confirmed screening match stops before it left (held, or claimed after the decision): not
 * sent, its reserve back in the balance (a refund's BRL back in the customer's BRL balance), the
 * transaction FAILED (a refund's state FAILED) with its event. A payout no longer PENDING is left alone.
 */
export async function refusePayout(tx: Executor, environment: Environment, key: string, at: Date) {
  const payout = await lockPayout(tx, environment, key);
  if (payout?.status !== 'PENDING') return;
  const row = (await lockTransaction(tx, payout.transaction_id))!;
  await rejected(tx, payout, row, COMPLIANCE_REFUSAL, at, {
    failureReason:
      'Refused by compliance: a sanctions screening match was confirmed; nothing was paid and the reserve went back to the balance',
    failureCode: 'compliance_refused',
  });
}

async function returned(
  tx: Executor,
  payout: PayoutRow,
  row: TransactionRow,
  result: { reason: string; code?: string },
  at: Date,
) {
  await postJournal(tx, {
    tenant: tenantOf(row),
    kind: 'PAYOUT_RETURNED',
    reference: payout.end_to_end_id,
    transactionId: row.id,
    entries: payoutReturned(row.customer_id, payout.amount, payout.currency),
    at,
  });
  await setPayoutStatus(tx, payout.end_to_end_id, 'RETURNED', result.reason, at);
  await moveOffRamp(tx, row, 'RETURNED', at, {
    return_reason: result.reason,
    // a PIX devolução has no code; a US bank's return says which it was
    ...(payout.rail === 'ACH' ? { failure_code: 'ach_returned', return_code: result.code ?? null } : {}),
    ...(payout.rail === 'WIRE' ? { failure_code: 'wire_reversed' } : {}),
  });
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
    case 'RETURNED': {
      if (payout.kind !== 'OFF_RAMP') return 'DUPLICATE';
      let settled = row;
      if (isOpen(payout) && payout.rail !== 'PIX') {
        // the bank reports the return before Ponte learnt of the settlement: both happened
        settled = await completed(tx, payout, row, at);
      } else if (payout.status !== 'COMPLETED' || row.status !== 'SUCCESS') {
        return 'DUPLICATE';
      }
      await returned(tx, { ...payout, status: 'COMPLETED' }, settled, result, at);
      return 'APPLIED';
    }
  }
}
