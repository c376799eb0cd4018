import type { AppContext } from '../context.ts';
import type { Logger } from '../core/logger.ts';
import { WORK_CHANNEL } from '../db/notify.ts';
import { sweepIdempotencyKeys } from '../http/idempotency-repo.ts';
import { submitDuePayouts } from '../modules/off-ramp/payout-submission.ts';
import { offRampStep } from '../modules/off-ramp/settlement.ts';
import { expireDueTransactions } from '../modules/on-ramp/expiry.ts';
import { onRampStep } from '../modules/on-ramp/settlement.ts';
import { reconcilePix } from '../modules/pix/sweep.ts';
import { pruneRequestLog } from '../modules/request-log/service.ts';
import { runScreening } from '../modules/screening/runs.ts';
import { settleInFlight } from '../modules/transactions/in-flight.ts';
import { applyDueSandboxOutcomes } from '../modules/verifications/sandbox.ts';
import { confirmSimulatedDeposits } from '../modules/wallets/deposits.ts';
import { reconcileChains } from '../modules/wallets/reconcile.ts';
import { checkSubmitted, signQueued } from '../modules/wallets/sender.ts';
import { watchChains } from '../modules/wallets/watcher.ts';
import { sweepStaleSessions } from '../modules/web-users/sessions.ts';
import { createDispatcher, type DispatcherDeps } from '../modules/webhooks/dispatcher.ts';
import { eraseRetiredSecrets, purgeOldDeliveries } from '../modules/webhooks/retention-repo.ts';
import { type Loop, type LoopOptions, startLoop, type WakeSignal, wakeSignal } from './loop.ts';

export type { Logger };

/**
 * The webhook dispatcher on its loop; stopping it also waits for the attempts in progress. A wake-up runs
 * it at once: a notification there means events to deliver.
 */
export function startDispatcher(deps: DispatcherDeps, options: Omit<LoopOptions, 'wakeGapMs'> = {}): Loop {
  // an attempt recorded frees room for the next due delivery: the loop looks again at once
  const room = wakeSignal();
  const dispatcher = createDispatcher({ ...deps, onRoom: room.wake });
  const wake: WakeSignal = {
    subscribe(listener) {
      const ends = [room.subscribe(listener), options.wake?.subscribe(listener)];
      return () => {
        for (const end of ends) end?.();
      };
    },
  };
  const loop = startLoop('webhook-dispatcher', deps.config.dispatchIntervalMs, dispatcher.tick, deps.log, {
    ...options,
    wake,
    wakeGapMs: 0,
  });
  return {
    async stop() {
      await loop.stop();
      await dispatcher.stop();
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

/**
 * Listens for work notifications (where the database offers them) and wakes every subscribed loop on
 * each. Without them, or while the listening session is being opened again, the loops' back-off alone
 * bounds how late work is picked up.
 */
function listenForWork(ctx: AppContext, log: Logger): WakeSignal & { close(): Promise<void> } {
  const signal = wakeSignal();
  const stop =
    ctx.config.databaseNotifications && ctx.db.listen
      ? ctx.db.listen(WORK_CHANNEL, signal.wake).catch((err) => {
          log.error({ err }, 'not listening for work notifications; workers poll');
          return undefined;
        })
      : Promise.resolve(undefined);
  return {
    subscribe: signal.subscribe,
    async close() {
      await (await stop)?.();
    },
  };
}

/** How often the reconciliation job looks whether a sweep is due (each sweep's own period is in the database). */
function pixSweepTick(ctx: AppContext): number {
  const every = [ctx.config.pix.production, ctx.config.pix.sandbox].map((c) => c?.reconcileEveryMs ?? 60_000);
  return Math.max(50, Math.min(5_000, ...every));
}

/**
 * Every background job of a process. Each is safe to run on several processes at once (SKIP LOCKED).
 * Idle jobs back off up to `workerMaxIdleMs` and wake on work notifications.
 */
export function startWorkers(ctx: AppContext, log: Logger): Loop {
  const work = listenForWork(ctx, log);
  const idle: LoopOptions = { maxIdleMs: ctx.config.workerMaxIdleMs, wake: work };
  const chainPoll = ctx.config.chains.pollIntervalMs;
  // each flow carries its own transactions forward
  const steps = { ON_RAMP: onRampStep(ctx), OFF_RAMP: offRampStep(ctx.config) };
  const loops = [
    startLoop('sandbox-verifications', 200, () => applyDueSandboxOutcomes(ctx.db, ctx.clock), log, idle),
    startLoop(
      'transaction-expiry',
      1_000,
      () => expireDueTransactions(ctx.db, ctx.clock, 100, ctx.pix),
      log,
      idle,
    ),
    startLoop('transaction-settlement', 1_000, () => settleInFlight(ctx, steps), log, idle),
    startLoop('pix-payouts', 500, () => submitDuePayouts(ctx), log, idle),
    startLoop('pix-reconciliation', pixSweepTick(ctx), () => reconcilePix(ctx), log),
    startLoop('chain-signer', chainPoll, () => signQueued(ctx), log, idle),
    startLoop('chain-confirmations', chainPoll, () => checkSubmitted(ctx), log, idle),
    startLoop('chain-deposits', chainPoll, () => watchChains({ ...ctx, log }), log, idle),
    startLoop('chain-reconciliation', 60_000, () => reconcileChains({ ...ctx, log }), log),
    startLoop('sandbox-chain-deposits', 500, () => confirmSimulatedDeposits(ctx), log, idle),
    startLoop('screening-runs', 1_000, () => runScreening({ ...ctx, log }), log, idle),
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
    startDispatcher(
      {
        db: ctx.db,
        clock: ctx.clock,
        config: ctx.config.webhooks,
        encryptionKey: ctx.instanceKeys.encryption,
        log,
      },
      idle,
    ),
  ];
  return {
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
      await work.close();
    },
  };
}
