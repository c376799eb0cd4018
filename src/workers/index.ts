import type { AppContext } from '../context.ts';
import type { Logger } from '../core/logger.ts';
import { sweepIdempotencyKeys } from '../http/idempotency-store.ts';
import { submitDuePayouts } from '../modules/rails/pix/payout-submission.ts';
import { pruneRequestLog } from '../modules/request-log/service.ts';
import { expireDueTransactions } from '../modules/transactions/expiry.ts';
import { settleInFlight } from '../modules/transactions/settlement.ts';
import { applyDueSandboxOutcomes } from '../modules/verifications/sandbox.ts';
import { confirmSimulatedDeposits } from '../modules/wallets/deposits.ts';
import { checkSubmitted, signQueued } from '../modules/wallets/sender.ts';
import { watchChains } from '../modules/wallets/watcher.ts';
import { sweepStaleSessions } from '../modules/web-users/sessions.ts';
import { createDispatcher, type DispatcherDeps } from '../modules/webhooks/dispatcher.ts';
import { eraseRetiredSecrets, purgeOldDeliveries } from '../modules/webhooks/retention.ts';
import { type Loop, startLoop } from './loop.ts';

export type { Logger };

/** The webhook dispatcher on its loop; stopping it also waits for the attempts in progress. */
export function startDispatcher(deps: DispatcherDeps): Loop {
  const dispatcher = createDispatcher(deps);
  const loop = startLoop('webhook-dispatcher', deps.config.dispatchIntervalMs, dispatcher.tick, deps.log);
  return {
    async stop() {
      await loop.stop();
      await dispatcher.drain();
    },
  };
}

/**
 * The background jobs of a process configured to run them (`workers`, on by default); none in an
 * API-only process, whose work a separate worker process over the same database carries on.
 */
export function startConfiguredWorkers(ctx: AppContext, log: Logger): Loop | undefined {
  return ctx.config.workers ? startWorkers(ctx, log) : undefined;
}

/** Every background job of a process. Each is safe to run on several processes at once (SKIP LOCKED). */
export function startWorkers(ctx: AppContext, log: Logger): Loop {
  const loops = [
    startLoop('sandbox-verifications', 200, () => applyDueSandboxOutcomes(ctx.db, ctx.clock), log),
    startLoop('transaction-expiry', 1_000, () => expireDueTransactions(ctx.db, ctx.clock), log),
    startLoop('transaction-settlement', 1_000, () => settleInFlight(ctx), log),
    startLoop('pix-payouts', 500, () => submitDuePayouts(ctx), log),
    startLoop('chain-signer', ctx.config.chains.pollIntervalMs, () => signQueued(ctx), log),
    startLoop('chain-confirmations', ctx.config.chains.pollIntervalMs, () => checkSubmitted(ctx), log),
    startLoop('chain-deposits', ctx.config.chains.pollIntervalMs, () => watchChains(ctx), log),
    startLoop('sandbox-chain-deposits', 500, () => confirmSimulatedDeposits(ctx), log),
    startLoop(
      'request-log-retention',
      60_000,
      () => pruneRequestLog(ctx.db, ctx.clock, ctx.config.requestLog.retentionMs),
      log,
    ),
    startLoop('web-session-sweeper', 60_000, () => sweepStaleSessions(ctx.db, ctx.clock), log),
    // Idempotency keys past their 24 hours, and secret-bearing answers past their replay window.
    startLoop('idempotency-sweeper', 60_000, () => sweepIdempotencyKeys(ctx.db, ctx.clock()), log),
    startLoop(
      'webhook-retention',
      60_000,
      async () =>
        (await purgeOldDeliveries(ctx.db, ctx.clock(), ctx.config.webhooks.retentionMs)) +
        (await eraseRetiredSecrets(ctx.db, ctx.clock())),
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
