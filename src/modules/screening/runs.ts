/**
 * Re-screening after a new list version: a run walks every subject source in id order, a batch per
 * transaction, its cursor committed with the cases the batch opened. Runs are claimed with SKIP LOCKED,
 * so several workers share them safely and a run interrupted anywhere resumes after its last batch.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/types.ts';
import { indexInForce } from './lists.ts';
import { advanceRun, claimRun } from './runs-repo.ts';
import { SUBJECT_SOURCES, screenSubject, subjectOf } from './service.ts';

export const RUN_BATCH = 1_000;

/** One batch of the oldest pending run; returns how many subjects it screened (0: nothing to do). */
export async function runScreening(
  deps: { db: Database; clock: Clock; config: Pick<Config, 'screening'> },
  batch = RUN_BATCH,
): Promise<number> {
  const { db, clock, config } = deps;
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
    return Math.max(rows.length, 1);
  });
}
