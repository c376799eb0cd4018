/**
 * Schedules the background jobs: every module's (its descriptor's `jobs`), and the process's own (the
 * idempotency sweeper of the HTTP layer, the settlement that carries both flows' transactions forward).
 */
import type { AppContext } from '../context.ts';
import type { Logger } from '../core/logger.ts';
import { WORK_CHANNEL } from '../db/notify.ts';
import { sweepIdempotencyKeys } from '../http/idempotency-repo.ts';
import { moduleJobs } from '../modules/index.ts';
import { offRampStep } from '../modules/off-ramp/settlement.ts';
import { onRampStep } from '../modules/on-ramp/settlement.ts';
import { type Job, job } from '../modules/plugins.ts';
import { settleInFlight } from '../modules/transactions/in-flight.ts';
import type { DispatcherDeps } from '../modules/webhooks/dispatcher.ts';
import { dispatcherJob } from '../modules/webhooks/module.ts';
import { type Loop, type LoopOptions, startLoop, type WakeSignal, wakeSignal } from './loop.ts';

export type { Logger };

/**
 * A job on its loop. A job that wakes backs off while idle (`idle`) and wakes on its notifications; every
 * job also runs at once when it asks to (`again`). Stopping it waits for its tick, then closes it.
 */
function startJob(job: Job, log: Logger, idle: LoopOptions): Loop {
  const room = wakeSignal();
  const { tick, close } = job.open(room.wake);
  const options = job.wakes ? idle : {};
  const wake: WakeSignal = {
    subscribe(listener) {
      const ends = [room.subscribe(listener), options.wake?.subscribe(listener)];
      return () => {
        for (const end of ends) end?.();
      };
    },
  };
  const loop = startLoop(job.name, job.everyMs, tick, log, {
    ...options,
    wake,
    ...(job.wakeGapMs === undefined ? {} : { wakeGapMs: job.wakeGapMs }),
  });
  return {
    async stop() {
      await loop.stop();
      await close?.();
    },
  };
}

/**
 * The webhook dispatcher on its loop; stopping it also waits for the attempts in progress. A wake-up runs
 * it at once: a notification there means events to deliver.
 */
export function startDispatcher(deps: DispatcherDeps, options: Omit<LoopOptions, 'wakeGapMs'> = {}): Loop {
  return startJob(dispatcherJob(deps), deps.log, options);
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

/** The jobs no single module owns. */
function processJobs(ctx: AppContext): Job[] {
  // each flow carries its own transactions forward, in one job over both
  const steps = { ON_RAMP: onRampStep(ctx), OFF_RAMP: offRampStep(ctx.config) };
  return [
    job('transaction-settlement', 1_000, true, () => settleInFlight(ctx, steps)),
    // Idempotency keys past their 24 hours, and secret-bearing answers past their replay window.
    job('idempotency-sweeper', 60_000, false, () => sweepIdempotencyKeys(ctx.db, ctx.clock())),
  ];
}

/**
 * Every background job of a process. Each is safe to run on several processes at once (SKIP LOCKED).
 * Idle jobs back off up to `workerMaxIdleMs` and wake on work notifications.
 */
export function startWorkers(ctx: AppContext, log: Logger): Loop {
  const work = listenForWork(ctx, log);
  const idle: LoopOptions = { maxIdleMs: ctx.config.workerMaxIdleMs, wake: work };
  const loops = [...moduleJobs(ctx, log), ...processJobs(ctx)].map((job) => startJob(job, log, idle));
  return {
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
      await work.close();
    },
  };
}
