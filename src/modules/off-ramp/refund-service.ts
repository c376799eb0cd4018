/**
 * Refunds: BRL that arrived for an on-ramp but was not converted (a
 * deposit after expiry, a second deposit, a wrong amount, a failed conversion) is held in the
 * customer's BRL balance; `POST /transactions/{id}/refund` sends each such deposit back to its payer
 * over PIX (a PIX "devolução" of that payment). The BRL is reserved from the balance under the
 * customer's row lock, so it cannot be paid out twice, and the refund's state is kept on the
 * transaction.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { FiatRails } from '../../rails/fiat-rails.ts';
import { lockCustomer } from '../customers/service.ts';
import { reserveBalance } from '../ledger/reserve.ts';
import { refuseHeld } from '../screening/service.ts';
import { presentTransaction, type TransactionView } from '../transactions/presenter.ts';
import { findTransaction, lockTransaction, type TransactionRow } from '../transactions/read-service.ts';
import { insertPayout, refundableDeposits } from './payout-repo.ts';
import { productionPayoutsConfigured, submitDuePayouts } from './payout-submission.ts';
import { recordRefundState } from './refund-state.ts';
import { newRefundKey } from './settlement.ts';

export type RefundDeps = { db: Database; clock: Clock; config: Config; pix: FiatRails };

/** The on-ramp whose deposits are refunded: found, an on-ramp, with a rail to send them back on. */
async function refundable(deps: RefundDeps, tenant: Tenant, id: string): Promise<TransactionRow> {
  const found = await findTransaction(deps.db, tenant, id);
  if (!found) throw notFound('Transaction');
  if (found.type !== 'ON_RAMP') {
    throw new AppError('invalid_state_transition', 'Only an on-ramp holds deposits to refund');
  }
  if (tenant.environment === 'production' && !productionPayoutsConfigured(deps.config)) {
    throw new AppError(
      'service_unavailable',
      'Refunds are not available: no PIX PSP is configured for production (PONTE_PIX_PSP)',
    );
  }
  return found;
}

/** One deposit's refund booked: its BRL reserved from the customer's balance, its payout recorded. */
async function bookRefund(
  tx: Executor,
  config: Config,
  tenant: Tenant,
  row: TransactionRow,
  deposit: { end_to_end_id: string; amount: bigint },
  now: Date,
): Promise<string> {
  const key = newRefundKey(config, row, now);
  await reserveBalance(tx, {
    tenant,
    customerId: row.customer_id,
    currency: 'BRL',
    amount: deposit.amount,
    into: 'PAYOUT_IN_TRANSIT',
    kind: 'REFUND_RESERVED',
    reference: key,
    transactionId: row.id,
    at: now,
  });
  await insertPayout(tx, {
    end_to_end_id: key,
    environment: row.environment,
    transaction_id: row.id,
    kind: 'REFUND',
    amount: deposit.amount,
    bank_account_id: null,
    refunded_end_to_end_id: deposit.end_to_end_id,
    status: 'PENDING',
    attempts: 0,
    next_attempt_at: now,
    failure_reason: null,
    rail: 'PIX',
    currency: 'BRL',
    created_at: now,
    updated_at: now,
  });
  return key;
}

/**
 * Refunds what an on-ramp holds (`POST /transactions/{id}/refund`): under the customer's lock (none on
 * compliance hold) and the transaction's, each deposit held for refund is reserved and recorded as a
 * payout, the refund PENDING; the payouts are sent once committed (the workers send any left).
 */
export async function refundOnRamp(deps: RefundDeps, tenant: Tenant, id: string): Promise<TransactionView> {
  const { db, clock, config } = deps;
  const found = await refundable(deps, tenant, id);
  // payouts to submit once committed; the transaction's value is the answer, committed with it
  const sent: string[] = [];
  const view = await db.transaction(async (tx) => {
    sent.length = 0; // a retried transaction starts over
    await lockCustomer(tx, tenant, found.customer_id);
    // a customer on compliance hold sends nothing back either (409 compliance_hold, nothing booked)
    await refuseHeld(tx, [found.customer_id]);
    const row = (await lockTransaction(tx, id))!;
    if (row.refund_status === 'PENDING') {
      throw new AppError('invalid_state_transition', 'A refund of this transaction is already on its way');
    }
    const failed = row.status === 'FAILED' || row.status === 'EXPIRED';
    const deposits = await refundableDeposits(tx, row.id, failed);
    if (deposits.length === 0) {
      throw new AppError(
        'invalid_state_transition',
        `Nothing is held for refund on this ${row.status} transaction`,
      );
    }
    const now = clock();
    let total = 0n;
    for (const deposit of deposits) {
      sent.push(await bookRefund(tx, config, tenant, row, deposit, now));
      total += deposit.amount;
    }
    const updated = await recordRefundState(tx, row, {
      status: 'PENDING',
      amount: total,
      failureReason: null,
      at: now,
    });
    return presentTransaction(updated);
  });
  setImmediate(() => {
    for (const key of sent) {
      void submitDuePayouts(deps, 1, key).catch((error: Error) =>
        deps.pix.log.warn(
          { reason: error.message, transactionId: id, endToEndId: key },
          'refund not submitted now; the workers submit it',
        ),
      );
    }
  });
  return view;
}

/** The refund service the routes use. */
export function createRefundService(deps: RefundDeps) {
  return { refund: (tenant: Tenant, id: string) => refundOnRamp(deps, tenant, id) };
}
