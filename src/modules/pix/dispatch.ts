/**
 * The PIX intake's dispatch: what a PSP rail confirms goes to the flow it concerns. A received PIX is
 * first an on-ramp's deposit, then it carries the results of the refunds of it; a send's state is an
 * off-ramp payout's result. Registered on the rails by the runtime (this module's offer, `pixIntake`);
 * the rails themselves never lock a transaction or post a journal.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { ReceivedFunds } from '../../rails/fiat-rail.ts';
import { receivedFunds, sentFunds } from '../../rails/pix/fiat.ts';
import type { PixHandlers } from '../../rails/pix/registry.ts';
import { recordUnreadableItem } from '../../rails/pix/service.ts';
import { applyRefundResults, applySendState, sendIdOfEndToEndId } from '../off-ramp/pix-results.ts';

export type PixIntakeDeps = { db: Database; clock: Clock; config: Config };

/** What the on-ramp does with a deposit the provider confirmed. */
type DepositHandler = (environment: Environment, funds: ReceivedFunds) => Promise<void>;

export function pixHandlers(deps: PixIntakeDeps, deposit: DepositHandler): PixHandlers {
  return {
    async received(environment, pix) {
      const funds = receivedFunds(pix);
      await deposit(environment, funds);
      await applyRefundResults(deps, environment, funds);
    },
    sent: (environment, state) => applySendState(deps, environment, sentFunds(state)),
    sendIdOf: (environment, endToEndId) => sendIdOfEndToEndId(deps.db, environment, endToEndId),
    async unreadable(environment, item, reason, source) {
      await recordUnreadableItem(deps.db, item, reason, deps.clock(), environment, source);
    },
  };
}
