/**
 * Sends recorded payouts to the rail of their environment and currency (BRL over PIX, USD over ACH or
 * wire). Claimed with SKIP LOCKED and a lease (see
 * claimDuePayouts), so several processes send side by side, and a payout whose process died before the
 * rail took it is sent again, with the same end-to-end id, once its lease has passed. This is also the
 * recovery sweep for off-ramps: with settlement carrying their earlier steps, none stays in flight.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { CURRENCY_SCALE } from '../../core/currencies.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type {
  PayoutOrder,
  PayoutRef,
  PayoutResult,
  StatusAnswer,
  SubmitAnswer,
} from '../../rails/fiat-rail.ts';
import {
  type BrlRail,
  brlRailOf,
  type FiatRails,
  type PixDestination,
  type UsdDestination,
  type UsdPayoutRail,
  usdRailOf,
} from '../../rails/fiat-rails.ts';
import { findTransactionById } from '../transactions/read-service.ts';
import { applyPayoutResult, refusePayout } from './payout.ts';
import { payoutsFreeToLeave } from './payout-holds.ts';
import {
  claimDuePayouts,
  claimPayoutsToCheck,
  findPayout,
  markSubmitted,
  type PayoutDestination,
  type PayoutRow,
  type PayoutToCheck,
  payoutDestination,
  recordPspEndToEndId,
  resubmitPayout,
} from './payout-repo.ts';

export type PayoutDeps = { db: Database; clock: Clock; config: Config; pix: FiatRails };

/** What applying a rail's answer needs (no rail is called). */
type ResultDeps = Pick<PayoutDeps, 'db' | 'clock' | 'config'>;

/** The rail a payout is sent by: PIX (BRL), or the US bank (USD over ACH or wire). */
type RailOf = { rail: 'PIX'; pix: BrlRail } | { rail: 'ACH' | 'WIRE'; usd: UsdPayoutRail };

/** How long a claimed payout waits before it is sent again (doubling per attempt). */
const RETRY_AFTER_MS = 5_000;

/**
 * Whether production can pay out in a currency: BRL needs a PSP (PONTE_PIX_PSP), USD a US bank
 * (PONTE_USD_BANK).
 */
export function productionPayoutsConfigured(config: Config, currency: 'BRL' | 'USD' = 'BRL'): boolean {
  return currency === 'USD' ? config.usdBank.production !== undefined : config.pix.production !== undefined;
}

function railOf(deps: PayoutDeps, payout: Pick<PayoutRow, 'rail' | 'environment'>): RailOf | null {
  if (payout.rail === 'PIX') {
    const pix = brlRailOf(deps.pix, payout.environment);
    return pix && { rail: 'PIX', pix };
  }
  const usd = usdRailOf(deps.config.usdBank, payout.environment);
  return usd && { rail: payout.rail, usd };
}

const refOf = (payout: PayoutToCheck): PayoutRef => ({
  key: payout.end_to_end_id,
  kind: payout.kind,
  refundOf: payout.refunded_end_to_end_id,
  attempts: payout.attempts,
  ...(payout.rail === 'PIX' ? {} : { method: payout.rail }),
});

/** An off-ramp's payout as a rail takes it: the amount, the bank account it goes to, the source amount. */
async function orderOf<D>(
  db: Database,
  payout: PayoutRow,
  destinationOf: (found: PayoutDestination) => D,
): Promise<PayoutOrder<D>> {
  const row = (await findTransactionById(db, payout.transaction_id))!;
  const destination = (await payoutDestination(db, payout.bank_account_id!))!;
  return {
    amount: payout.amount,
    destination: destinationOf(destination),
    source: { currency: row.currency, amount: row.amount, scale: CURRENCY_SCALE[row.currency] },
    memo: row.memo,
  };
}

const pixDestination = (found: PayoutDestination): PixDestination => ({
  keyType: found.key_type!,
  keyValue: found.key_value!,
  name: found.holder_legal_name,
  taxId: found.holder_tax_id!,
});

const usdDestination =
  (rail: 'ACH' | 'WIRE') =>
  (found: PayoutDestination): UsdDestination => ({
    rail,
    routingNumber: found.routing_number!,
    accountNumber: found.account_number!,
    accountType: found.account_type!,
    name: found.holder_legal_name,
    holderType: found.holder_type,
    address: found.holder_address,
  });

/** Hands a payout to its rail: an off-ramp's is paid out, a refund gives its deposit back. */
async function sendOver(rail: RailOf, db: Database, payout: PayoutRow): Promise<SubmitAnswer> {
  const ref = refOf(payout);
  if (rail.rail !== 'PIX') return rail.usd.payOut(await orderOf(db, payout, usdDestination(rail.rail)), ref);
  if (payout.kind === 'REFUND') {
    return rail.pix.giveBack({ amount: payout.amount, of: payout.refunded_end_to_end_id! }, ref);
  }
  return rail.pix.payOut(await orderOf(db, payout, pixDestination), ref);
}

const lookUpOn = (rail: RailOf, ref: PayoutRef): Promise<StatusAnswer> =>
  rail.rail === 'PIX' ? rail.pix.lookUp(ref) : rail.usd.lookUp(ref);

const reportsLater = (rail: RailOf) => (rail.rail === 'PIX' ? rail.pix.reportsLater : rail.usd.reportsLater);

/** The PSP's end-to-end id, when it gave one, recorded with what it reports (one transaction). */
async function record(
  deps: ResultDeps,
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
  const rail = railOf(deps, payout);
  if (!rail) return; // tried again once production payouts are configured
  // no connection or lock is held while the rail answers
  const answer = await sendOver(rail, deps.db, payout);
  if ('retry' in answer) return;
  await record(deps, payout, answer);
}

/** Asks the rail about an accepted payout whose result is late, and applies what it says. */
async function check(deps: PayoutDeps, payout: PayoutToCheck): Promise<void> {
  const rail = railOf(deps, payout);
  if (!rail || !reportsLater(rail)) return;
  await applyAnswer(deps, payout, await lookUpOn(rail, refOf(payout)));
}

/** What the rail says of a payout now, applied: a result recorded, an unknown payout sent again. */
async function applyAnswer(deps: ResultDeps, payout: PayoutToCheck, answer: StatusAnswer): Promise<void> {
  const { db, clock } = deps;
  if ('result' in answer) {
    await record(deps, payout, answer);
  } else if ('pending' in answer) {
    if (answer.endToEndId) await record(deps, payout, { endToEndId: answer.endToEndId });
  } else if ('unknown' in answer) {
    await db.transaction((tx) => resubmitPayout(tx, payout.end_to_end_id, clock()));
  }
}

/**
 * A payout a confirmed match refuses, tried before: the rail is asked first. One it never made is refused
 * (FAILED, the reserve released); one it made (its answer was lost) cannot be called back, so what the
 * rail says of it is applied, never a refusal that would credit the customer for money that left; no
 * answer: asked again at its next claim.
 */
async function refuseUnlessMade(deps: PayoutDeps, payout: PayoutRow): Promise<void> {
  const rail = railOf(deps, payout);
  if (!rail) return;
  const answer = reportsLater(rail) ? await lookUpOn(rail, refOf(payout)) : { unknown: true as const };
  if ('retry' in answer) return;
  if ('unknown' in answer) {
    await deps.db.transaction((tx) =>
      refusePayout(tx, payout.environment, payout.end_to_end_id, deps.clock()),
    );
    return;
  }
  // the rail has it: settled (or refused) by its result, or awaited as any accepted payout is
  await record(deps, payout, 'result' in answer ? answer : { ...answer, accepted: true });
}

/**
 * Worker: sends up to `batch` due payouts; with `only`, just that one (right after it was recorded).
 * Then asks about up to `batch` accepted payouts whose result is late, so none waits forever on a
 * notification that was lost.
 */
export async function submitDuePayouts(deps: PayoutDeps, batch = 20, only?: string): Promise<number> {
  const { db, clock, config } = deps;
  // a payout of a customer (or to an account holder) on compliance hold is held, in the claim's transaction
  const { free: claimed, toLookUp } = await db.transaction(async (tx) =>
    payoutsFreeToLeave(tx, await claimDuePayouts(tx, clock(), batch, RETRY_AFTER_MS, only), clock()),
  );
  await Promise.all([
    ...claimed.map((payout) => submit(deps, payout)),
    ...toLookUp.map((payout) => refuseUnlessMade(deps, payout)),
  ]);
  if (only) return claimed.length;
  const late = await db.transaction((tx) =>
    claimPayoutsToCheck(tx, clock(), batch, config.moneyOut.pixPayoutStatusAfterMs),
  );
  await Promise.all(late.map((payout) => check(deps, payout)));
  return claimed.length + late.length;
}

/**
 * A US bank payout's state as the bank reported it (a webhook's transfer read back, or one the bank
 * listed): applied like a look-up's answer, so a settlement, a rejection or a return reported any number
 * of times, in any order with the workers' own look-ups, is applied once. A key that is not a payout of
 * the environment changes nothing.
 */
export async function applyBankPayoutState(
  deps: ResultDeps,
  environment: Environment,
  key: string,
  answer: StatusAnswer,
): Promise<void> {
  const payout = await findPayout(deps.db, environment, key);
  // a payout already returned has nothing more to learn (the sweep lists returns for 60 days)
  if (!payout || payout.rail === 'PIX' || payout.status === 'RETURNED') return;
  if ('pending' in answer) {
    if (payout.status !== 'PENDING') return;
    await record(deps, payout, { accepted: true });
    return;
  }
  if ('unknown' in answer || 'retry' in answer) return;
  await applyAnswer(deps, payout, answer);
}
