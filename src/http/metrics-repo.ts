import type { Executor } from '../db/types.ts';

/**
 * Outbox depth: events not yet delivered. That is events the webhook fan-out has not turned into
 * deliveries yet, plus events with at least one delivery still pending (being retried).
 */
export async function readOutboxDepth(db: Executor): Promise<number> {
  const rows = await db.query<{ n: bigint }>(
    `SELECT (SELECT count(*) FROM events WHERE dispatched_at IS NULL)
          + (SELECT count(DISTINCT event_id) FROM webhook_deliveries WHERE status = 'PENDING') AS n`,
  );
  return Number(rows[0]?.n ?? 0n);
}
