/**
 * Re-screening after a new list version: a run walks every subject source in id order, a batch per
 * transaction, its cursor committed with the cases the batch opened. Runs are claimed with SKIP LOCKED,
 * so several workers share them safely and a run interrupted anywhere resumes after its last batch.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Database } from '../../db/types.ts';
import { indexInForce } from './lists.ts';
import { advanceRun, claimRun, countSubjects, runOfVersion } from './runs-repo.ts';
import { SUBJECT_SOURCES, screenSubject, subjectOf } from './service.ts';

export const RUN_BATCH = 1_000;

/** One batch of the oldest pending run; returns how many subjects it screened (0: nothing to do). */
export async function runScreening(
  deps: { db: Database; clock: Clock; config: Pick<Config, 'screening'>; log?: Logger },
  batch = RUN_BATCH,
): Promise<number> {
  const { db, clock, config, log } = deps;
  return db.transaction(async (tx) => {
    const run = await claimRun(tx);
    if (!run) return 0;
    const { index } = await indexInForce(tx);
    let position = run.subject_type ? SUBJECT_SOURCES.findIndex((s) => s.type === run.subject_type) : 0;
    if (position < 0) position = 0;
    const source = SUBJECT_SOURCES[position]!;
    const rows = await source.page(tx, run.cursor_id, batch);
    const at = clock();
    let held = 0;
    for (const row of rows) {
      const opened = await screenSubject(
        tx,
        subjectOf(source.type, row),
        config.screening.threshold,
        at,
        index,
      );
      if (opened?.opened) held++;
    }
    const finishedSource = rows.length < batch;
    const next = finishedSource ? SUBJECT_SOURCES[position + 1] : source;
    await advanceRun(
      tx,
      run.id,
      {
        subjectType: next?.type ?? source.type,
        cursorId: finishedSource ? null : rows.at(-1)!.id,
        screened: rows.length,
        held,
        done: next === undefined,
      },
      at,
    );
    log?.info?.(
      {
        runId: run.id,
        versionId: run.version_id,
        screened: Number(run.screened) + rows.length,
        held: Number(run.held) + held,
        done: next === undefined,
      },
      next === undefined ? 'screening run finished' : 'screening run progressed',
    );
    return Math.max(rows.length, 1);
  });
}

/**
 * Carries the re-screening against `versionId` to its end in this process, alongside any worker that
 * shares it, reporting the subjects screened so far of those there are.
 */
export async function rescreenVersion(
  deps: { db: Database; clock: Clock; config: Pick<Config, 'screening'> },
  versionId: string,
  progress: (screened: number, total: number) => void,
  pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<{ screened: number; held: number }> {
  const total = await countSubjects(deps.db);
  for (;;) {
    const run = await runOfVersion(deps.db, versionId);
    if (!run) throw new Error(`no re-screening run for list version ${versionId}`);
    const screened = Number(run.screened);
    progress(screened, Math.max(total, screened));
    if (run.status === 'DONE') return { screened, held: Number(run.held) };
    // nothing claimed: another process holds the run's batch; look again shortly
    if ((await runScreening(deps)) === 0) await pause(200);
  }
}
