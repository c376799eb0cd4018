import type { AppContext } from '../context.ts';
import { applyDueSandboxOutcomes } from '../modules/verifications/sandbox.ts';
import { type Loop, startLoop } from './loop.ts';

export type Logger = { error(obj: unknown, msg: string): void };

/** Every background job of a process. Each is safe to run on several processes at once (SKIP LOCKED). */
export function startWorkers(ctx: AppContext, log: Logger): Loop {
  const loops = [
    startLoop('sandbox-verifications', 200, () => applyDueSandboxOutcomes(ctx.db, ctx.clock), log),
  ];
  return {
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}
