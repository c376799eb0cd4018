/**
 * The rail's own records: items a PSP notified or answered that could not be read, kept for operations.
 * What is kept is bounded, so that a flood of garbage costs little: an item's JSON is kept whole up to
 * `SAMPLE_BYTES` and as its first characters beyond (`{sample, bytes}`), and at most `HOURLY_CAP` items
 * an hour are kept per environment; past that they are only counted (`/metrics`) and logged.
 */
import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

export const SAMPLE_BYTES = 2_048;
export const HOURLY_CAP = 1_000;

/** Where an unreadable item came from: a notification, or an answer to one of Ponte's own calls. */
export type UnreadableSource = 'notification' | 'psp-answer';

function sampled(item: unknown): string {
  const text = JSON.stringify(item ?? null) ?? 'null';
  if (text.length <= SAMPLE_BYTES) return text;
  return JSON.stringify({ sample: text.slice(0, SAMPLE_BYTES), bytes: Buffer.byteLength(text) });
}

/** Keeps an item that could not be read, unless the hour's cap is reached; true when it was kept. */
export async function recordUnreadableItem(
  db: Executor,
  item: unknown,
  reason: string,
  at: Date,
  environment: Environment | null = null,
  source: UnreadableSource = 'notification',
): Promise<boolean> {
  const kept = await db.query(
    `INSERT INTO pix_notification_rejects (id, item, reason, received_at, environment, source)
     SELECT $1, $2, $3, $4, $5, $6
      WHERE (SELECT count(*) FROM pix_notification_rejects
              WHERE environment IS NOT DISTINCT FROM $5 AND received_at > $4::timestamptz - interval '1 hour') < $7
     RETURNING id`,
    [newId(), sampled(item), reason.slice(0, 500), at, environment, source, HOURLY_CAP],
  );
  return kept.length > 0;
}
