/**
 * Work notifications: the channel background workers listen on. A trigger notifies it whenever outbox
 * events are recorded (migration 016); `notifyWork` is for a change that wakes a worker without an event.
 */
import type { Executor } from './types.ts';

export const WORK_CHANNEL = 'ponte_work';

/** Notifies the workers when the current transaction commits (at once outside a transaction). */
export async function notifyWork(db: Executor): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [WORK_CHANNEL, '']);
}
