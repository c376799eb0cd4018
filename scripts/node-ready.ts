/**
 * Waits until a local EVM node started as a child process answers `ask` (polled every 100 ms, up to
 * about 10 s), or fails with why: the process exited, or it never answered.
 */
import type { ChildProcess } from 'node:child_process';

export async function untilNodeAnswers(
  child: ChildProcess,
  exited: Promise<Error>,
  ask: () => Promise<unknown>,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await Promise.race([
      ask().then(
        () => null,
        (error: Error) => error,
      ),
      exited,
    ]);
    if (outcome === null) return;
    if (child.exitCode !== null || attempt > 100 || outcome.message.startsWith('anvil exited')) throw outcome;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
