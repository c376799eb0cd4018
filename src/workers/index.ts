import type { AppContext } from '../context.ts';
import { submitDuePayouts } from '../modules/rails/pix/payout-submission.ts';
import { pruneRequestLog } from '../modules/request-log/service.ts';
import { settleInFlight } from '../modules/transactions/settlement.ts';
import { applyDueSandboxOutcomes } from '../modules/verifications/sandbox.ts';
import { sweepStaleSessions } from '../modules/web-users/sessions.ts';
import { purgeOldDeliveries } from '../modules/webhooks/retention.ts';
import { startDispatcher } from './dispatcher.ts';
import { expireDueTransactions } from './expiry.ts';
import { sweepExpiredIdempotencyKeys } from './idempotency-sweeper.ts';
import { type Loop, startLoop } from './loop.ts';

export type Logger = { error(obj: unknown, msg: string): void };

/** Every background job of a process. Each is safe to run on several processes at once (SKIP LOCKED). */
export function startWorkers(ctx: AppContext, log: Logger): Loop {
  const loops = [
    startLoop('sandbox-verifications', 200, () => applyDueSandboxOutcomes(ctx.db, ctx.clock), log),
    startLoop('transaction-expiry', 1_000, () => expireDueTransactions(ctx.db, ctx.clock), log),
    startLoop('transaction-settlement', 1_000, () => settleInFlight(ctx), log),
    startLoop('pix-payouts', 500, () => submitDuePayouts(ctx), log),
    startLoop(
      'request-log-retention',
      60_000,
      () => pruneRequestLog(ctx.db, ctx.clock, ctx.config.requestLog.retentionMs),
      log,
    ),
    startLoop('web-session-sweeper', 60_000, () => sweepStaleSessions(ctx.db, ctx.clock), log),
    startLoop('idempotency-sweeper', 60_000, () => sweepExpiredIdempotencyKeys(ctx.db, ctx.clock), log),
    startLoop(
      'webhook-retention',
      60_000,
      () => purgeOldDeliveries(ctx.db, ctx.clock(), ctx.config.webhooks.retentionMs),
      log,
    ),
    startDispatcher({
      db: ctx.db,
      clock: ctx.clock,
      config: ctx.config.webhooks,
      encryptionKey: ctx.instanceKeys.encryption,
      log,
    }),
  ];
  return {
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}
