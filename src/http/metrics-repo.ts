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

/**
 * When the oldest event not yet delivered was recorded: the oldest the fan-out has not reached (by the
 * undispatched index) or the oldest event with a delivery still being retried (by the due index).
 */
export async function readOutboxOldest(db: Executor): Promise<Date | null> {
  const rows = await db.query<{ oldest: Date | null }>(
    `SELECT least(
        (SELECT created_at FROM events WHERE dispatched_at IS NULL ORDER BY seq LIMIT 1),
        (SELECT min(e.created_at) FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE d.status = 'PENDING')) AS oldest`,
  );
  return rows[0]?.oldest ?? null;
}
