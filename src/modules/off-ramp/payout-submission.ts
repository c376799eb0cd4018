/**
 * Sends recorded payouts to the rail of their environment. Claimed with SKIP LOCKED and a lease (see
 * claimDuePayouts), so several processes send side by side, and a payout whose process died before the
 * rail took it is sent again, with the same end-to-end id, once its lease has passed. This is also the
 * recovery sweep for off-ramps: with settlement carrying their earlier steps, none stays in flight.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { CURRENCY_SCALE } from '../../core/currencies.ts';
import type { Database } from '../../db/types.ts';
import type { PayoutOrder, PayoutRef, PayoutResult, SubmitAnswer } from '../../rails/fiat-rail.ts';
import { type BrlRail, brlRailOf, type FiatRails, type PixDestination } from '../../rails/fiat-rails.ts';
import { findTransactionById } from '../transactions/read-service.ts';
import { applyPayoutResult } from './payout.ts';
import { payoutsFreeToLeave } from './payout-holds.ts';
import {
  claimDuePayouts,
  claimPayoutsToCheck,
  markSubmitted,
  type PayoutRow,
  type PayoutToCheck,
  payoutDestination,
  recordPspEndToEndId,
  resubmitPayout,
} from './payout-repo.ts';

export type PayoutDeps = { db: Database; clock: Clock; config: Config; pix: FiatRails };

/** How long a claimed payout waits before it is sent again (doubling per attempt). */
const RETRY_AFTER_MS = 5_000;

/** Whether production can pay out: a PSP is configured (PONTE_PIX_PSP). */
export function productionPayoutsConfigured(config: Config): boolean {
  return config.pix.production !== undefined;
}

const refOf = (payout: PayoutToCheck): PayoutRef => ({
  key: payout.end_to_end_id,
  kind: payout.kind,
  refundOf: payout.refunded_end_to_end_id,
  attempts: payout.attempts,
});

/** An off-ramp's payout as the rail takes it: the amount, the bank account it goes to, the source amount. */
async function orderOf(db: Database, payout: PayoutRow): Promise<PayoutOrder<PixDestination>> {
  const row = (await findTransactionById(db, payout.transaction_id))!;
  const destination = (await payoutDestination(db, payout.bank_account_id!))!;
  return {
    amount: payout.amount,
    destination: {
      keyType: destination.key_type,
      keyValue: destination.key_value,
      name: destination.holder_legal_name,
      taxId: destination.holder_tax_id,
    },
    source: { currency: row.currency, amount: row.amount, scale: CURRENCY_SCALE[row.currency] },
  };
}

/** Hands a payout to the rail: an off-ramp's is paid out, a refund gives its deposit back. */
async function sendOver(rail: BrlRail, db: Database, payout: PayoutRow): Promise<SubmitAnswer> {
  const ref = refOf(payout);
  if (payout.kind === 'REFUND') {
    return rail.giveBack({ amount: payout.amount, of: payout.refunded_end_to_end_id! }, ref);
  }
  return rail.payOut(await orderOf(db, payout), ref);
}

/** The PSP's end-to-end id, when it gave one, recorded with what it reports (one transaction). */
async function record(
  deps: PayoutDeps,
  payout: Pick<PayoutRow, 'end_to_end_id' | 'environment'>,
  answer: { endToEndId?: string; result?: PayoutResult; accepted?: boolean },
): Promise<void> {
  const { db, clock, config } = deps;
  await db.transaction(async (tx) => {
    if (answer.endToEndId) await recordPspEndToEndId(tx, payout.end_to_end_id, answer.endToEndId);
    if (answer.result) {
      await applyPayoutResult(tx, payout.environment, payout.end_to_end_id, answer.result, clock());
    } else if (answer.accepted) {
      const at = clock();
      const checkAt = new Date(at.getTime() + config.moneyOut.pixPayoutStatusAfterMs);
      await markSubmitted(tx, payout.end_to_end_id, at, checkAt);
    }
  });
}

async function submit(deps: PayoutDeps, payout: PayoutRow): Promise<void> {
  const rail = brlRailOf(deps.pix, payout.environment);
  if (!rail) return; // tried again once production payouts are configured
  // no connection or lock is held while the rail answers
  const answer = await sendOver(rail, deps.db, payout);
  if ('retry' in answer) return;
  await record(deps, payout, answer);
}

/** Asks the rail about an accepted payout whose result is late, and applies what it says. */
async function check(deps: PayoutDeps, payout: PayoutToCheck): Promise<void> {
  const { db, clock } = deps;
  const rail = brlRailOf(deps.pix, payout.environment);
  if (!rail?.reportsLater) return;
  const answer = await rail.lookUp(refOf(payout));
  if ('result' in answer) {
    await record(deps, payout, answer);
  } else if ('pending' in answer) {
    if (answer.endToEndId) await record(deps, payout, { endToEndId: answer.endToEndId });
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
  // a payout of a customer (or to an account holder) on compliance hold is held, in the claim's transaction
  const claimed = await db.transaction(async (tx) =>
    payoutsFreeToLeave(tx, await claimDuePayouts(tx, clock(), batch, RETRY_AFTER_MS, only), clock()),
  );
  await Promise.all(claimed.map((payout) => submit(deps, payout)));
  if (only) return claimed.length;
  const late = await db.transaction((tx) =>
    claimPayoutsToCheck(tx, clock(), batch, config.moneyOut.pixPayoutStatusAfterMs),
  );
  await Promise.all(late.map((payout) => check(deps, payout)));
  return claimed.length + late.length;
}
