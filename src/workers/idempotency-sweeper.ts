import type { Clock } from '../core/clock.ts';
import type { Database } from '../db/types.ts';
import { deleteExpiredKeys } from '../http/idempotency-store.ts';

/** Deletes idempotency keys past their 24 hours, a batch per tick; any number of processes may sweep. */
export function sweepExpiredIdempotencyKeys(db: Database, clock: Clock): Promise<number> {
  return deleteExpiredKeys(db, clock());
}
