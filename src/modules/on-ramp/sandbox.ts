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
import type { Database, Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { simulatedPaymentId } from '../../rails/fiat-rails.ts';
import { presentTransaction, type TransactionView } from '../transactions/presenter.ts';
import {
  findTransaction,
  lockTransaction,
  setExpiresAt,
  type TransactionRow,
} from '../transactions/read-service.ts';
import { receivePixPayment } from './deposit.ts';
import { expireCharge } from './expiry.ts';
import { settleOnRamp } from './settlement.ts';

export type SandboxDepositDeps = {
  db: Database;
  clock: Clock;
  log: Logger;
  config: Config;
  chains: ChainRegistry;
  references: AppContext['references'];
};

/** The tenant's transaction, locked (404 when it is another tenant's or none). */
async function lockOwn(tx: Executor, tenant: Tenant, id: string): Promise<TransactionRow> {
  const row = await lockTransaction(tx, id);
  if (!row || row.project_id !== tenant.projectId || row.environment !== tenant.environment) {
    throw notFound('Transaction');
  }
  return row;
}

/**
 * Expires an AWAITING_FUNDS on-ramp now, exactly as the expiry sweeper does when its window passes
 * (EXPIRED, `transaction.updated`, its limits released); its `expiresAt` becomes now.
 */
export async function expireSandboxOnRamp(
  deps: Pick<SandboxDepositDeps, 'db' | 'clock'>,
  tenant: Tenant,
  id: string,
): Promise<TransactionView> {
  return deps.db.transaction(async (tx) => {
    const row = await lockOwn(tx, tenant, id);
    if (row.type !== 'ON_RAMP' || row.status !== 'AWAITING_FUNDS') {
      throw new AppError(
        'invalid_state_transition',
        `Only an on-ramp AWAITING_FUNDS expires; this ${row.type} is ${row.status}`,
      );
    }
    const now = deps.clock();
    const due = row.expires_at! > now ? await setExpiresAt(tx, row.id, now) : row;
    return presentTransaction(await expireCharge(tx, due, now));
  });
}

/** 409 unless the transaction is an on-ramp AWAITING_FUNDS whose charge has not expired at `now`. */
function assertTakesDeposit(row: TransactionRow, now: Date): void {
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
    throw new AppError('invalid_state_transition', `The charge expired at ${row.expires_at.toISOString()}`);
  }
}

/**
 * A simulated payment of an on-ramp's charge (the amount requested, or another one): received through
 * the same path as a PIX the PSP confirms, then settled as production settles it.
 */
export async function depositSandboxOnRamp(
  deps: SandboxDepositDeps,
  tenant: Tenant,
  id: string,
  amountText: string | undefined,
): Promise<TransactionView> {
  const amount = amountText === undefined ? undefined : parseAmount(amountText);
  if (amount !== undefined && amount <= 0n) throw invalidField('/body/amount', 'must be greater than zero');
  await deps.db.transaction(async (tx) => {
    const row = await lockOwn(tx, tenant, id);
    const now = deps.clock();
    assertTakesDeposit(row, now);
    const paid = amount ?? row.amount;
    const endToEndId = simulatedPaymentId(now);
    const txid = row.pix_txid!;
    const payload = { simulated: true, endToEndId, txid, amount: paid.toString() };
    await receivePixPayment(tx, 'sandbox', { endToEndId, txid, amount: paid, paidAt: now, payload }, now);
  });
  await settleOnRamp(deps, id);
  const row = await findTransaction(deps.db, tenant, id);
  return presentTransaction(row!);
}

/** The sandbox's deposit and expiry of on-ramps, for its routes. */
export function createSandboxDepositService(deps: SandboxDepositDeps) {
  return {
    deposit: (tenant: Tenant, id: string, amount: string | undefined) =>
      depositSandboxOnRamp(deps, tenant, id, amount),
    expire: (tenant: Tenant, id: string) => expireSandboxOnRamp(deps, tenant, id),
  };
}
