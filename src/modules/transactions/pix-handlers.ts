/**
 * What Ponte does with what a PSP rail confirms: a received PIX is booked against its charge (by txid)
 * exactly once, as the sandbox's simulated deposits are, and carried on by settlement. Registered on the
 * rails at wiring time (runtime.ts); the rails themselves never lock a transaction or post a journal.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { ChainRegistry } from '../rails/chains/registry.ts';
import { receivePixPayment } from '../rails/pix/deposit.ts';
import { applyPayoutResult, applySendReturn } from '../rails/pix/payout.ts';
import type { ReceivedPix, SendState } from '../rails/pix/rail.ts';
import type { PixHandlers } from '../rails/pix/registry.ts';
import {
  findPayout,
  markSubmitted,
  payoutKeyOfEndToEndId,
  recordPspEndToEndId,
  recordUnreadableItem,
} from '../rails/pix/service.ts';
import { settleNow } from './settlement.ts';

export type PixHandlerDeps = { db: Database; clock: Clock; config: Config; chains: ChainRegistry };

export function receivedPixHandler(deps: PixHandlerDeps) {
  return async (environment: Environment, pix: ReceivedPix): Promise<void> => {
    const { db, clock } = deps;
    const result = await db.transaction((tx) =>
      receivePixPayment(
        tx,
        environment,
        {
          endToEndId: pix.endToEndId,
          txid: pix.txid ?? '',
          amount: pix.amount,
          paidAt: pix.paidAt,
          payload: pix.payload,
        },
        clock(),
      ),
    );
    if (result.outcome === 'APPLIED' && result.transactionId) await settleNow(deps, result.transactionId);
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

export function pixHandlers(deps: PixHandlerDeps): PixHandlers {
  return {
    received: receivedPixHandler(deps),
    sent: sentPixHandler(deps),
    sendIdOf: (environment, endToEndId) => payoutKeyOfEndToEndId(deps.db, environment, endToEndId),
    async unreadable(environment, item, reason) {
      await recordUnreadableItem(deps.db, item, reason, deps.clock(), environment);
    },
  };
}
