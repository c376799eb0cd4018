/**
 * What an off-ramp learns from the PIX rail: the state of each send Ponte made (an off-ramp's payout,
 * then the parts the receiving bank gave back), and the final states of the refunds Ponte asked for of a
 * PIX it received. The PIX intake (modules/pix) hands them over; these lock the payout and post its journal.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { ReceivedPix, SendState } from '../../rails/pix/rail.ts';
import { applyPayoutResult, applySendReturn } from './payout.ts';
import { findPayout, markSubmitted, payoutKeyOfEndToEndId, recordPspEndToEndId } from './payout-repo.ts';

export type PixResultDeps = { db: Database; clock: Clock; config: Config };

/** The final states of the refunds of `pix` that Ponte asked for. */
export async function applyRefundResults(
  deps: PixResultDeps,
  environment: Environment,
  pix: ReceivedPix,
): Promise<void> {
  const { db, clock } = deps;
  for (const refund of pix.refunds) {
    if (refund.status === 'EM_PROCESSAMENTO') continue;
    const payout = await findPayout(db, environment, refund.id);
    if (payout?.kind !== 'REFUND' || payout.refunded_end_to_end_id !== pix.endToEndId) continue;
    await db.transaction((tx) =>
      applyPayoutResult(
        tx,
        environment,
        refund.id,
        refund.status === 'DEVOLVIDO'
          ? { status: 'COMPLETED' }
          : {
              status: 'REJECTED',
              reason: refund.reason ?? 'the PSP did not make the refund (NAO_REALIZADO)',
            },
        clock(),
      ),
    );
  }
}

/**
 * A send's state as the PSP reports it (a whole record, so reports that arrive out of order settle the
 * same): its end-to-end id recorded, its result applied, then each part the receiving bank gave back.
 */
export async function applySendState(
  deps: PixResultDeps,
  environment: Environment,
  state: SendState,
): Promise<void> {
  const { db, clock, config } = deps;
  const payout = await findPayout(db, environment, state.sendId);
  if (payout?.kind !== 'OFF_RAMP') return;
  if (state.amount !== payout.amount) throw new Error(`the PSP reports ${state.sendId} with another amount`);
  await db.transaction(async (tx) => {
    if (state.endToEndId) await recordPspEndToEndId(tx, state.sendId, state.endToEndId);
    const at = clock();
    if (state.status === 'REALIZADO') {
      await applyPayoutResult(tx, environment, state.sendId, { status: 'COMPLETED' }, at);
    } else if (state.status === 'NAO_REALIZADO') {
      const reason = state.reason ?? 'the PSP did not make the PIX (NAO_REALIZADO)';
      await applyPayoutResult(tx, environment, state.sendId, { status: 'REJECTED', reason }, at);
    } else if (payout.status === 'PENDING') {
      // the PSP has it: never sent again; its result is awaited, and asked for when late
      await markSubmitted(
        tx,
        state.sendId,
        at,
        new Date(at.getTime() + config.moneyOut.pixPayoutStatusAfterMs),
      );
    }
  });
  if (state.status !== 'REALIZADO') return;
  for (const part of state.returns) {
    await db.transaction((tx) => applySendReturn(tx, environment, state.sendId, part, clock()));
  }
}

/** The payout a PIX send of Ponte's carried, by the send's end-to-end id (a notification names only that). */
export const sendIdOfEndToEndId = (db: Database, environment: Environment, endToEndId: string) =>
  payoutKeyOfEndToEndId(db, environment, endToEndId);
