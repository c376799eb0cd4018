/**
 * Runs a background job repeatedly: right away again while it reports work done; when it finds none, after
 * its interval, then after twice as long each time it finds none again, up to `maxIdleMs`. Work found or
 * a wake-up (a database notification that work may have arrived) brings it back to its interval; a wake-up
 * while it sleeps runs it after at most `wakeGapMs` from its last run, so that a stream of notifications
 * never runs it more often than that. Failures are logged and retried like an idle tick; `stop()` waits
 * for the tick in progress.
 */
import type { Logger } from '../core/logger.ts';

export type Loop = { stop(): Promise<void> };

/** Where wake-ups come from: `subscribe` returns the function that ends the subscription. */
export type WakeSignal = { subscribe(listener: () => void): () => void };

export type LoopOptions = {
  /** The longest idle sleep; at least the interval. Default: the interval (no back-off). */
  maxIdleMs?: number;
  wake?: WakeSignal;
  /** The least time between the end of a run and a run a wake-up asks for. Default: the interval. */
  wakeGapMs?: number;
};

/** Fans one source of wake-ups out to every loop subscribed. */
export function wakeSignal(): WakeSignal & { wake(): void } {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    wake() {
      for (const listener of listeners) listener();
    },
  };
}

export function startLoop(
  name: string,
  intervalMs: number,
  tick: () => Promise<number>,
  log: Logger,
  options: LoopOptions = {},
): Loop {
  const maxIdleMs = Math.max(intervalMs, options.maxIdleMs ?? intervalMs);
  const wakeGapMs = Math.min(intervalMs, options.wakeGapMs ?? intervalMs);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** When the sleeping timer fires (epoch ms); undefined while a tick runs. */
  let dueAt: number | undefined;
  let lastEnd = 0;
  let idleMs = intervalMs;
  let woken = false;
  let running: Promise<void> = Promise.resolve();

  const sleep = (ms: number) => {
    clearTimeout(timer);
    dueAt = Date.now() + ms;
    timer = setTimeout(schedule, ms);
  };
  const run = async () => {
    dueAt = undefined;
    woken = false;
    let busy = false;
    try {
      busy = (await tick()) > 0;
    } catch (err) {
      log.error({ err, worker: name }, 'worker tick failed');
    }
    lastEnd = Date.now();
    if (stopped) return;
    if (busy) {
      idleMs = intervalMs;
      sleep(0);
    } else if (woken) {
      sleep(wakeGapMs);
    } else {
      sleep(idleMs);
      idleMs = Math.min(idleMs * 2, maxIdleMs);
    }
  };
  function schedule() {
    running = run();
  }
  const onWake = () => {
    if (stopped) return;
    idleMs = intervalMs;
    if (dueAt === undefined) {
      woken = true;
      return;
    }
    const at = Math.max(Date.now(), lastEnd + wakeGapMs);
    if (at < dueAt) sleep(at - Date.now());
  };
  const unsubscribe = options.wake?.subscribe(onWake);
  schedule();

  return {
    async stop() {
      stopped = true;
      unsubscribe?.();
      clearTimeout(timer);
      await running;
    },
  };
}
