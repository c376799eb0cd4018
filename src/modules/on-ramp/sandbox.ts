/**
 * Sandbox deposits: a partner simulates the customer paying a charge, with the requested amount or
 * another one, through the same rail adapter and settlement as production.
 */

import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { parseAmount } from '../../core/money.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { simulatedPaymentId } from '../../rails/fiat-rails.ts';
import { presentTransaction, type TransactionView } from '../transactions/presenter.ts';
import { findTransaction, lockTransaction, setExpiresAt } from '../transactions/read-service.ts';
import { receivePixPayment } from './deposit.ts';
import { expireCharge } from './expiry.ts';
import { settleOnRamp } from './settlement.ts';

export function createSandboxDepositService(deps: {
  db: Database;
  clock: Clock;
  log: Logger;
  config: Config;
  chains: ChainRegistry;
  references: AppContext['references'];
}) {
  const { db, clock } = deps;

  /**
   * Expires an AWAITING_FUNDS on-ramp now, exactly as the expiry sweeper does when its window passes
   * (EXPIRED, `transaction.updated`, its limits released); its `expiresAt` becomes now.
   */
  async function expire(tenant: Tenant, id: string): Promise<TransactionView> {
    return db.transaction(async (tx) => {
      const row = await lockTransaction(tx, id);
      if (!row || row.project_id !== tenant.projectId || row.environment !== tenant.environment) {
        throw notFound('Transaction');
      }
      if (row.type !== 'ON_RAMP' || row.status !== 'AWAITING_FUNDS') {
        throw new AppError(
          'invalid_state_transition',
          `Only an on-ramp AWAITING_FUNDS expires; this ${row.type} is ${row.status}`,
        );
      }
      const now = clock();
      const due = row.expires_at! > now ? await setExpiresAt(tx, row.id, now) : row;
      return presentTransaction(await expireCharge(tx, due, now));
    });
  }

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
      if (row.type !== 'ON_RAMP' || row.expires_at === null) {
        throw new AppError('invalid_state_transition', 'Only an on-ramp takes a deposit');
      }
      if (now >= row.expires_at) {
        throw new AppError(
          'invalid_state_transition',
          `The charge expired at ${row.expires_at.toISOString()}`,
        );
      }
      const paid = amount ?? row.amount;
      const endToEndId = simulatedPaymentId(now);
      const txid = row.pix_txid!;
      await receivePixPayment(
        tx,
        'sandbox',
        {
          endToEndId,
          txid,
          amount: paid,
          paidAt: now,
          payload: { simulated: true, endToEndId, txid, amount: paid.toString() },
        },
        now,
      );
    });
    await settleOnRamp(deps, id);
    const row = await findTransaction(db, tenant, id);
    return presentTransaction(row!);
  }

  return { deposit, expire };
}
