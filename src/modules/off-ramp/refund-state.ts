/**
 * Where the refund of an on-ramp's held deposits stands, kept on the transaction (`refund`) and
 * announced with `transaction.updated`: PENDING while a payment back to the payer is on its way,
 * SUCCESS once every one was paid, FAILED when the rail rejected one (its BRL is back in the
 * customer's balance and the refund may be requested again).
 */
import type { Executor } from '../../db/types.ts';
import { recordEvent } from '../events/outbox.ts';
import { presentTransaction } from '../transactions/presenter.ts';
import {
  type RefundState,
  setRefundState,
  type TransactionRow,
  tenantOf,
} from '../transactions/read-service.ts';
import { payoutsOf } from './payout-repo.ts';

export async function recordRefundState(
  tx: Executor,
  row: TransactionRow,
  state: RefundState,
): Promise<TransactionRow> {
  const updated = await setRefundState(tx, row.id, state);
  await recordEvent(tx, {
    tenant: tenantOf(updated),
    type: 'transaction.updated',
    resourceType: 'transaction',
    resourceId: updated.id,
    data: presentTransaction(updated),
    at: state.at,
  });
  return updated;
}

/**
 * After a result for one of the payments of the latest refund request: PENDING while any is on its way,
 * FAILED if the rail rejected any, SUCCESS when all were paid.
 */
export async function refundSettled(
  tx: Executor,
  row: TransactionRow,
  failureReason: string | null,
  at: Date,
): Promise<TransactionRow> {
  const all = await payoutsOf(tx, row.id, 'REFUND');
  const latest = Math.max(...all.map((p) => p.created_at.getTime()));
  const batch = all.filter((p) => p.created_at.getTime() === latest);
  const status = batch.some((p) => p.status === 'PENDING' || p.status === 'SUBMITTED')
    ? 'PENDING'
    : batch.some((p) => p.status === 'REJECTED')
      ? 'FAILED'
      : 'SUCCESS';
  const amount = batch.reduce((sum, p) => sum + p.amount, 0n);
  const reason =
    status === 'FAILED'
      ? (batch.find((p) => p.status === 'REJECTED')?.failure_reason ?? failureReason)
      : null;
  return recordRefundState(tx, row, { status, amount, failureReason: reason, at });
}
