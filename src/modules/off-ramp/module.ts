/**
 * The off-ramp: its routes (the sandbox's return too), what a decided hold does to its held payouts and
 * what the US bank's report of a payout does, and the job that submits due payouts.
 */
import { job, type ModuleDescriptor } from '../plugins.ts';
import { decideHeldPayouts } from './payout-holds.ts';
import { applyBankPayoutState, submitDuePayouts } from './payout-submission.ts';
import { offRampRoutes } from './routes.ts';
import { sandboxReturnRoutes } from './sandbox-routes.ts';

export const offRampModule: ModuleDescriptor = {
  name: 'off-ramp',
  routes: { partner: [offRampRoutes, sandboxReturnRoutes] },
  offers: (deps) => ({
    holdDecided: [(tx, _deps, decided, at) => decideHeldPayouts(tx, decided, at)],
    bankPayoutReported: (environment, key, state) => applyBankPayoutState(deps, environment, key, state),
  }),
  jobs: (ctx) => [job('pix-payouts', 500, true, () => submitDuePayouts(ctx))],
};
