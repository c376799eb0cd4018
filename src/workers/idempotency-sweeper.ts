import type { Clock } from '../core/clock.ts';
import type { Database } from '../db/types.ts';
import { deleteExpiredKeys, eraseSecretAnswers } from '../http/idempotency-store.ts';

/**
 * Deletes idempotency keys past their 24 hours and erases answers carrying a secret past their replay
 * window, a batch of each per tick; any number of processes may sweep.
 */
export async function sweepExpiredIdempotencyKeys(db: Database, clock: Clock): Promise<number> {
  const now = clock();
  return (await eraseSecretAnswers(db, now)) + (await deleteExpiredKeys(db, now));
}
