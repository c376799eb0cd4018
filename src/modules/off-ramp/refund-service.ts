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
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { FiatRails } from '../../rails/fiat-rails.ts';
import { lockCustomer } from '../customers/service.ts';
import { reserveBalance } from '../ledger/reserve.ts';
import { refuseHeld } from '../screening/service.ts';
import { presentTransaction, type TransactionView } from '../transactions/presenter.ts';
import { findTransaction, lockTransaction } from '../transactions/read-service.ts';
import { insertPayout, refundableDeposits } from './payout-repo.ts';
import { productionPayoutsConfigured, submitDuePayouts } from './payout-submission.ts';
import { recordRefundState } from './refund-state.ts';
import { newRefundKey } from './settlement.ts';

export function createRefundService(deps: { db: Database; clock: Clock; config: Config; pix: FiatRails }) {
  const { db, clock, config } = deps;

  async function refund(tenant: Tenant, id: string): Promise<TransactionView> {
    const found = await findTransaction(db, tenant, id);
    if (!found) throw notFound('Transaction');
    if (found.type !== 'ON_RAMP') {
      throw new AppError('invalid_state_transition', 'Only an on-ramp holds deposits to refund');
    }
    if (tenant.environment === 'production' && !productionPayoutsConfigured(config)) {
      throw new AppError(
        'service_unavailable',
        'Refunds are not available: no PIX PSP is configured for production (PONTE_PIX_PSP)',
      );
    }
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
        const e2e = newRefundKey(config, row, now);
        await reserveBalance(tx, {
          tenant,
          customerId: row.customer_id,
          currency: 'BRL',
          amount: deposit.amount,
          into: 'PAYOUT_IN_TRANSIT',
          kind: 'REFUND_RESERVED',
          reference: e2e,
          transactionId: row.id,
          at: now,
        });
        await insertPayout(tx, {
          end_to_end_id: e2e,
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
          created_at: now,
          updated_at: now,
        });
        sent.push(e2e);
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
      for (const e2e of sent) {
        void submitDuePayouts(deps, 1, e2e).catch((error: Error) =>
          deps.pix.log.warn(
            { reason: error.message, transactionId: id, endToEndId: e2e },
            'refund not submitted now; the workers submit it',
          ),
        );
      }
    });
    return view;
  }

  return { refund };
}
