/**
 * Runs a background job repeatedly: right away again while it reports work done, otherwise after the
 * interval. Failures are logged and retried on the next tick; `stop()` waits for the tick in progress.
 */
import type { Logger } from '../core/logger.ts';

export type Loop = { stop(): Promise<void> };

export function startLoop(name: string, intervalMs: number, tick: () => Promise<number>, log: Logger): Loop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const run = async () => {
    let busy = false;
    try {
      busy = (await tick()) > 0;
    } catch (err) {
      log.error({ err, worker: name }, 'worker tick failed');
    }
    if (!stopped) timer = setTimeout(schedule, busy ? 0 : intervalMs);
  };
  const schedule = () => {
    running = run();
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
