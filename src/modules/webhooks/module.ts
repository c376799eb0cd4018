/**
 * Webhooks: endpoint and delivery routes, their schemas, the dispatcher (woken at once when an attempt
 * frees room for the next due delivery) and the retention job.
 */
import { type Job, job, type ModuleDescriptor } from '../plugins.ts';
import { createDispatcher, type DispatcherDeps } from './dispatcher.ts';
import { eraseRetiredSecrets, purgeOldDeliveries } from './retention-repo.ts';
import { webhookRoutes } from './routes.ts';
import { WebhookDeliverySchema, WebhookEndpointSchema } from './schema.ts';

/**
 * The dispatcher as a job: an attempt recorded frees room for the next due delivery, and the job looks again
 * at once; stopping it also waits for the attempts in progress.
 */
export function dispatcherJob(deps: DispatcherDeps): Job {
  return {
    name: 'webhook-dispatcher',
    everyMs: deps.config.dispatchIntervalMs,
    wakes: true,
    wakeGapMs: 0,
    open(again) {
      const dispatcher = createDispatcher({ ...deps, onRoom: again });
      return { tick: dispatcher.tick, close: () => dispatcher.stop() };
    },
  };
}

export const webhooksModule: ModuleDescriptor = {
  name: 'webhooks',
  schemas: [WebhookEndpointSchema, WebhookDeliverySchema],
  routes: { partner: [webhookRoutes] },
  jobs: (ctx, log) => [
    job(
      'webhook-retention',
      60_000,
      false,
      async () =>
        (await purgeOldDeliveries(ctx.db, ctx.clock(), ctx.config.webhooks.retentionMs)) +
        (await eraseRetiredSecrets(ctx.db, ctx.clock())),
    ),
    dispatcherJob({
      db: ctx.db,
      clock: ctx.clock,
      config: ctx.config.webhooks,
      encryptionKey: ctx.instanceKeys.encryption,
      log,
    }),
  ],
};
