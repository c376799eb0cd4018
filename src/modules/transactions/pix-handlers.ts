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
import type { ReceivedPix } from '../rails/pix/rail.ts';
import type { PixHandlers } from '../rails/pix/registry.ts';
import { recordUnreadableItem } from '../rails/pix/repo.ts';
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
  };
}

export function pixHandlers(deps: PixHandlerDeps): PixHandlers {
  return {
    received: receivedPixHandler(deps),
    async sent() {},
    async sendIdOf() {
      return null;
    },
    async unreadable(_environment, item, reason) {
      await recordUnreadableItem(deps.db, item, reason, deps.clock());
    },
  };
}
