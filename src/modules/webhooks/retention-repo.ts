/**
 * Retention of webhook history: deliveries that ended (DELIVERED or FAILED) longer ago than the
 * configured age are deleted with their attempts, a small batch per call so that no statement holds
 * many locks or runs long; pending deliveries are never touched. Any number of processes may purge at
 * once (SKIP LOCKED). SQL only.
 */
import type { Executor } from '../../db/types.ts';

/**
 * Erases the ciphertext of signing secrets replaced by a rotation once their overlap has ended (they
 * no longer sign anything), up to `batch` endpoints per call.
 */
export async function eraseRetiredSecrets(db: Executor, now: Date, batch = 200): Promise<number> {
  const rows = await db.query(
    `UPDATE webhook_endpoints SET previous_secret_ciphertext = NULL
      WHERE id IN (SELECT id FROM webhook_endpoints
                    WHERE previous_secret_ciphertext IS NOT NULL AND previous_secret_expires_at <= $1
                    LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1`,
    [now, batch],
  );
  return rows.length;
}

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
