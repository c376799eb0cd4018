/** What the US bank intake of an environment works with: Increase's client, where the bank is Increase. */
import type { AppContext } from '../../context.ts';
import type { Environment } from '../../lib/environment.ts';
import { createIncreaseClient } from '../../rails/increase/client.ts';
import type { IntakeDeps } from './intake.ts';

/** The intake of an environment, or undefined where its US bank is not Increase (the sandbox's own bank). */
export function intakeOf(ctx: AppContext, environment: Environment): IntakeDeps | undefined {
  const config = ctx.config.usdBank[environment];
  if (!config) return undefined;
  return {
    db: ctx.db,
    clock: ctx.clock,
    log: ctx.log,
    bank: createIncreaseClient(config),
    received: (env, transfer) => ctx.offers.bankFundsReceived(env, transfer),
    payoutReported: (env, key, state) => ctx.offers.bankPayoutReported(env, key, state),
  };
}
