/**
 * The PIX intake both flows use: the PSP's webhook route, what the rails hand over (a PIX received goes to
 * the flow that offers it), and the reconciliation sweep.
 */
import type { AppContext } from '../../context.ts';
import { job, type ModuleDescriptor } from '../plugins.ts';
import { pixHandlers } from './dispatch.ts';
import { reconcilePix } from './sweep.ts';
import { pixWebhookRoutes } from './webhook-routes.ts';

/** How often the reconciliation job looks whether a sweep is due (each sweep's own period is in the database). */
function pixSweepTick(ctx: AppContext): number {
  const every = [ctx.config.pix.production, ctx.config.pix.sandbox].map((c) => c?.reconcileEveryMs ?? 60_000);
  return Math.max(50, Math.min(5_000, ...every));
}

export const pixModule: ModuleDescriptor = {
  name: 'pix',
  routes: { open: [pixWebhookRoutes] },
  offers: (deps, all) => ({
    pixIntake: pixHandlers(deps, (environment, pix) => all().fundsReceived(environment, pix)),
  }),
  jobs: (ctx) => [job('pix-reconciliation', pixSweepTick(ctx), false, () => reconcilePix(ctx))],
};
