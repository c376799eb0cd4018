/**
 * Sends recorded payouts to the rail of their environment. Claimed with SKIP LOCKED and a lease (see
 * claimDuePayouts), so several processes send side by side, and a payout whose process died before the
 * rail took it is sent again, with the same end-to-end id, once its lease has passed. This is also the
 * recovery sweep for off-ramps: with settlement carrying their earlier steps, none stays in flight.
 */
import type { Config } from '../../../config.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Database } from '../../../db/types.ts';
import type { Environment } from '../../../lib/environment.ts';
import { CURRENCY_SCALE } from '../../ledger/accounts.ts';
import { findTransactionById } from '../../transactions/service.ts';
import { applyPayoutResult, type PayoutOrder, type PayoutRail } from './payout.ts';
import {
  claimDuePayouts,
  claimPayoutsToCheck,
  markSubmitted,
  type PayoutRow,
  type PayoutToCheck,
  payoutDestination,
  resubmitPayout,
} from './payout-repo.ts';
import { providerPayoutRail } from './provider-payout.ts';
import { sandboxPayoutRail } from './sandbox-payout.ts';

export type PayoutDeps = { db: Database; clock: Clock; config: Config };

/** How long a claimed payout waits before it is sent again (doubling per attempt). */
const RETRY_AFTER_MS = 5_000;

/** Whether production can pay out: the provider's payout API, the shared secret and the ISPB are set. */
export function productionPayoutsConfigured(config: Config): boolean {
  return Boolean(config.moneyOut.pixPayoutUrl && config.onRamp.pixProviderSecret && config.moneyOut.pixIspb);
}

export function payoutRailFor(config: Config, environment: Environment): PayoutRail | null {
  if (environment === 'sandbox') return sandboxPayoutRail;
  if (!productionPayoutsConfigured(config)) return null;
  return providerPayoutRail({
    url: config.moneyOut.pixPayoutUrl!,
    secret: config.onRamp.pixProviderSecret!,
    timeoutMs: config.moneyOut.pixPayoutTimeoutMs,
  });
}

async function orderOf(db: Database, payout: PayoutRow): Promise<PayoutOrder> {
  const row = (await findTransactionById(db, payout.transaction_id))!;
  const destination = payout.bank_account_id ? await payoutDestination(db, payout.bank_account_id) : null;
  return {
    endToEndId: payout.end_to_end_id,
    kind: payout.kind,
    amount: payout.amount,
    destination: destination && {
      keyType: destination.key_type,
      keyValue: destination.key_value,
      name: destination.holder_legal_name,
      taxId: destination.holder_tax_id,
    },
    refundOf: payout.refunded_end_to_end_id,
    source: { currency: row.currency, amount: row.amount, scale: CURRENCY_SCALE[row.currency] },
  };
}

async function submit(deps: PayoutDeps, payout: PayoutRow): Promise<void> {
  const { db, clock, config } = deps;
  const rail = payoutRailFor(config, payout.environment);
  if (!rail) return; // tried again once production payouts are configured
  const answer = await rail.submit(await orderOf(db, payout));
  if ('result' in answer) {
    const result = answer.result;
    await db.transaction((tx) =>
      applyPayoutResult(tx, payout.environment, payout.end_to_end_id, result, clock()),
    );
  } else if ('accepted' in answer) {
    const at = clock();
    const checkAt = new Date(at.getTime() + config.moneyOut.pixPayoutStatusAfterMs);
    await db.transaction((tx) => markSubmitted(tx, payout.end_to_end_id, at, checkAt));
  }
}

/** Asks the rail about an accepted payout whose result is late, and applies what it says. */
async function check(deps: PayoutDeps, payout: PayoutToCheck): Promise<void> {
  const { db, clock, config } = deps;
  const rail = payoutRailFor(config, payout.environment);
  if (!rail?.status) return;
  const answer = await rail.status(payout.end_to_end_id);
  if ('result' in answer) {
    const result = answer.result;
    await db.transaction((tx) =>
      applyPayoutResult(tx, payout.environment, payout.end_to_end_id, result, clock()),
    );
  } else if ('unknown' in answer) {
    await db.transaction((tx) => resubmitPayout(tx, payout.end_to_end_id, clock()));
  }
}

/**
 * Worker: sends up to `batch` due payouts; with `only`, just that one (right after it was recorded).
 * Then asks about up to `batch` accepted payouts whose result is late, so none waits forever on a
 * notification that was lost.
 */
export async function submitDuePayouts(deps: PayoutDeps, batch = 20, only?: string): Promise<number> {
  const { db, clock, config } = deps;
  const claimed = await db.transaction((tx) => claimDuePayouts(tx, clock(), batch, RETRY_AFTER_MS, only));
  await Promise.all(claimed.map((payout) => submit(deps, payout)));
  if (only) return claimed.length;
  const late = await db.transaction((tx) =>
    claimPayoutsToCheck(tx, clock(), batch, config.moneyOut.pixPayoutStatusAfterMs),
  );
  await Promise.all(late.map((payout) => check(deps, payout)));
  return claimed.length + late.length;
}
