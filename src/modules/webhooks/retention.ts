/**
 * Retention of webhook history: deliveries that ended (DELIVERED or FAILED) longer ago than the
 * configured age are deleted with their attempts, a small batch per call so that no statement holds
 * many locks or runs long; pending deliveries are never touched. Any number of processes may purge at
 * once (SKIP LOCKED).
 */
import type { Executor } from '../../db/types.ts';

export async function purgeOldDeliveries(
  db: Executor,
  now: Date,
  retentionMs: number,
  batch = 200,
): Promise<number> {
  const rows = await db.query(
    `WITH old AS (
       SELECT id FROM webhook_deliveries
        WHERE status IN ('DELIVERED', 'FAILED') AND updated_at < $1
        ORDER BY updated_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED),
          attempts AS (DELETE FROM webhook_attempts a USING old WHERE a.delivery_id = old.id)
     DELETE FROM webhook_deliveries d USING old WHERE d.id = old.id
     RETURNING 1`,
    [new Date(now.getTime() - retentionMs), batch],
  );
  return rows.length;
}
