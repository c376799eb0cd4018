/**
 * The off-ramp: its routes (the sandbox's return too), what a decided hold does to its held payouts, and
 * the job that submits due payouts.
 */
import { job, type ModuleDescriptor } from '../plugins.ts';
import { decideHeldPayouts } from './payout-holds.ts';
import { submitDuePayouts } from './payout-submission.ts';
import { offRampRoutes } from './routes.ts';
import { sandboxReturnRoutes } from './sandbox-routes.ts';

export const offRampModule: ModuleDescriptor = {
  name: 'off-ramp',
  routes: { partner: [offRampRoutes, sandboxReturnRoutes] },
  offers: () => ({ holdDecided: [(tx, _deps, decided, at) => decideHeldPayouts(tx, decided, at)] }),
  jobs: (ctx) => [job('pix-payouts', 500, true, () => submitDuePayouts(ctx))],
};
