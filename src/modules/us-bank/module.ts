/**
 * The US bank intake: Increase's webhook route, the sweep of inbound transfers that catches what
 * webhooks missed, and the retry of returns Increase has not yet accepted, per environment whose US bank
 * is Increase. The on-ramp applies what it hands over (`bankFundsReceived`).
 */
import { ENVIRONMENTS } from '../../lib/environment.ts';
import { job, type ModuleDescriptor } from '../plugins.ts';
import { returnOutstanding } from './intake.ts';
import { intakeOf } from './module-deps.ts';
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
          return returnOutstanding(intake, environment);
        }),
      ];
    }),
};
