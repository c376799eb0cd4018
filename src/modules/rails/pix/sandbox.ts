/**
 * Sandbox deposits: a partner simulates the customer paying a charge, with the requested amount or
 * another one, through the same rail adapter and settlement as production.
 */

import type { Clock } from '../../../core/clock.ts';
import { AppError, invalidField, notFound } from '../../../core/errors.ts';
import { parseAmount } from '../../../core/money.ts';
import type { Database } from '../../../db/types.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { presentTransaction, type TransactionView } from '../../transactions/presenter.ts';
import { findTransaction, lockTransaction } from '../../transactions/service.ts';
import { settleNow } from '../../transactions/settlement.ts';
import { receivePixPayment } from './deposit.ts';
import { sandboxEndToEndId } from './end-to-end-id.ts';

export function createSandboxDepositService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function deposit(
    tenant: Tenant,
    id: string,
    amountText: string | undefined,
  ): Promise<TransactionView> {
    const amount = amountText === undefined ? undefined : parseAmount(amountText);
    if (amount !== undefined && amount <= 0n) throw invalidField('/body/amount', 'must be greater than zero');
    await db.transaction(async (tx) => {
      const row = await lockTransaction(tx, id);
      if (!row || row.project_id !== tenant.projectId || row.environment !== tenant.environment) {
        throw notFound('Transaction');
      }
      const now = clock();
      if (row.status !== 'AWAITING_FUNDS') {
        throw new AppError(
          'invalid_state_transition',
          `The transaction is ${row.status}; it no longer takes a deposit`,
        );
      }
      if (now >= row.expires_at) {
        throw new AppError(
          'invalid_state_transition',
          `The charge expired at ${row.expires_at.toISOString()}`,
        );
      }
      const paid = amount ?? row.amount;
      const endToEndId = sandboxEndToEndId(now);
      await receivePixPayment(
        tx,
        'sandbox',
        {
          endToEndId,
          txid: row.pix_txid,
          amount: paid,
          paidAt: now,
          payload: { simulated: true, endToEndId, txid: row.pix_txid, amount: paid.toString() },
        },
        now,
      );
    });
    await settleNow(db, clock, id);
    const row = await findTransaction(db, tenant, id);
    return presentTransaction(row!);
  }

  return { deposit };
}
