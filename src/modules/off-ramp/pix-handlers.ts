/**
 * What Ponte does with what a PSP rail confirms: a received PIX goes to the on-ramp (its deposit) and
 * carries the results of the refunds of it; a send's state is an off-ramp payout's result. Registered on
 * the rails at wiring time (runtime.ts); the rails themselves never lock a transaction or post a journal.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import type { ReceivedPix, SendState } from '../../rails/pix/rail.ts';
import type { PixHandlers } from '../../rails/pix/registry.ts';
import { recordUnreadableItem } from '../../rails/pix/service.ts';
import { applyPayoutResult, applySendReturn } from './payout.ts';
import { findPayout, markSubmitted, payoutKeyOfEndToEndId, recordPspEndToEndId } from './payout-repo.ts';

export type PixHandlerDeps = { db: Database; clock: Clock; config: Config; chains: ChainRegistry };

/**
 * A PIX the PSP confirmed the account received: first what its arrival means (the on-ramp's deposit,
 * registered at wiring time), then the final states of the refunds of it that Ponte asked for.
 */
export function receivedPixHandler(deps: PixHandlerDeps, deposit: PixHandlers['received']) {
  return async (environment: Environment, pix: ReceivedPix): Promise<void> => {
    const { db, clock } = deps;
    await deposit(environment, pix);
    // the refunds of this PIX Ponte asked for: their final states
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
  };
}

/**
 * A send's state as the PSP reports it (a whole record, so reports that arrive out of order settle the
 * same): its end-to-end id recorded, its result applied, then each part the receiving bank gave back.
 */
export function sentPixHandler(deps: PixHandlerDeps) {
  return async (environment: Environment, state: SendState): Promise<void> => {
    const { db, clock, config } = deps;
    const payout = await findPayout(db, environment, state.sendId);
    if (payout?.kind !== 'OFF_RAMP') return;
    if (state.amount !== payout.amount)
      throw new Error(`the PSP reports ${state.sendId} with another amount`);
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
  };
}

export function pixHandlers(deps: PixHandlerDeps, deposit: PixHandlers['received']): PixHandlers {
  return {
    received: receivedPixHandler(deps, deposit),
    sent: sentPixHandler(deps),
    sendIdOf: (environment, endToEndId) => payoutKeyOfEndToEndId(deps.db, environment, endToEndId),
    async unreadable(environment, item, reason, source) {
      await recordUnreadableItem(deps.db, item, reason, deps.clock(), environment, source);
    },
  };
}
