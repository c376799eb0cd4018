/**
 * The US bank intake: Increase's webhook route, the sweep of inbound transfers that catches what
 * webhooks missed, the retry of returns Increase has not yet accepted, and the sweep of payouts the
 * receiving banks gave back, per environment whose US bank is Increase. The on-ramp applies the dollars
 * it hands over (`bankFundsReceived`), the off-ramp its payouts' states (`bankPayoutReported`).
 */
import { ENVIRONMENTS } from '../../lib/environment.ts';
import { job, type ModuleDescriptor } from '../plugins.ts';
import { returnOutstanding } from './intake.ts';
import { intakeOf } from './module-deps.ts';
import { sweepReturnedPayouts } from './payouts.ts';
import { sweepIncrease } from './sweep.ts';
import { increaseWebhookRoutes } from './webhook-routes.ts';

/** How often the sweep reads Increase's inbound transfers, and the outstanding returns are retried. */
const SWEEP_EVERY_MS = 60_000;

export const usBankModule: ModuleDescriptor = {
  name: 'us-bank',
  routes: { open: [increaseWebhookRoutes] },
  jobs: (ctx) =>
    ENVIRONMENTS.flatMap((environment) => {
      const intake = intakeOf(ctx, environment);
      if (!intake) return [];
      return [
        job(`increase-sweep-${environment}`, SWEEP_EVERY_MS, false, async () => {
          await sweepIncrease(intake, environment);
          // the returns still to make at the bank never wait on the payouts' sweep
          await sweepReturnedPayouts(intake, environment).catch((err: unknown) =>
            intake.log.error({ err, environment }, 'the sweep of returned payouts did not finish'),
          );
          return returnOutstanding(intake, environment);
        }),
      ];
    }),
};
