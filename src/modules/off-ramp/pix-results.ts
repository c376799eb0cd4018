/**
 * What an off-ramp learns from its fiat rail, in the seam's terms (rails/fiat-rail.ts): the state of each
 * payment Ponte sent (an off-ramp's payout, then the parts the receiving bank gave back), and the final
 * states of the refunds Ponte asked for of a deposit it received. A rail's intake (modules/pix) hands them
 * over; these lock the payout and post its journal.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { ReceivedFunds, SentFunds } from '../../rails/fiat-rail.ts';
import { applyPayoutResult, applySendReturn } from './payout.ts';
import { findPayout, markSubmitted, payoutKeyOfEndToEndId, recordPspEndToEndId } from './payout-repo.ts';

export type PixResultDeps = { db: Database; clock: Clock; config: Config };

/** The final states of the refunds of a received deposit that Ponte asked for. */
export async function applyRefundResults(
  deps: PixResultDeps,
  environment: Environment,
  deposit: Pick<ReceivedFunds, 'reference' | 'givenBack'>,
): Promise<void> {
  const { db, clock } = deps;
  for (const refund of deposit.givenBack) {
    if (!('result' in refund.state)) continue;
    const result = refund.state.result;
    const payout = await findPayout(db, environment, refund.key);
    if (payout?.kind !== 'REFUND' || payout.refunded_end_to_end_id !== deposit.reference) continue;
    await db.transaction((tx) => applyPayoutResult(tx, environment, refund.key, result, clock()));
  }
}

/**
 * A payment's state as the provider reports it (a whole record, so reports that arrive out of order
 * settle the same): its end-to-end id recorded, its result applied, then each part the receiving bank
 * gave back.
 */
export async function applySendState(
  deps: PixResultDeps,
  environment: Environment,
  sent: SentFunds,
): Promise<void> {
  const { db, clock, config } = deps;
  const { key, state } = sent;
  const payout = await findPayout(db, environment, key);
  if (payout?.kind !== 'OFF_RAMP') return;
  if (sent.amount !== payout.amount) throw new Error(`the PSP reports ${key} with another amount`);
  if ('unknown' in state || 'retry' in state) return;
  await db.transaction(async (tx) => {
    if (state.endToEndId) await recordPspEndToEndId(tx, key, state.endToEndId);
    const at = clock();
    if ('result' in state) {
      await applyPayoutResult(tx, environment, key, state.result, at);
    } else if (payout.status === 'PENDING') {
      // the PSP has it: never sent again; its result is awaited, and asked for when late
      await markSubmitted(tx, key, at, new Date(at.getTime() + config.moneyOut.pixPayoutStatusAfterMs));
    }
  });
  if (!('result' in state) || state.result.status !== 'COMPLETED') return;
  for (const part of sent.returns) {
    await db.transaction((tx) => applySendReturn(tx, environment, key, part, clock()));
  }
}

/** The payout a PIX send of Ponte's carried, by the send's end-to-end id (a notification names only that). */
export const sendIdOfEndToEndId = (db: Database, environment: Environment, endToEndId: string) =>
  payoutKeyOfEndToEndId(db, environment, endToEndId);
