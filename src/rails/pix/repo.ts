/** The rail's own records: notification items it could not read, kept for operations. */
import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

/** Keeps a notification item that could not be read, for operations. */
export async function recordUnreadableItem(
  db: Executor,
  item: unknown,
  reason: string,
  at: Date,
  environment: Environment | null = null,
): Promise<void> {
  await db.query(
    'INSERT INTO pix_notification_rejects (id, item, reason, received_at, environment) VALUES ($1, $2, $3, $4, $5)',
    [newId(), JSON.stringify(item ?? null), reason, at, environment],
  );
}
