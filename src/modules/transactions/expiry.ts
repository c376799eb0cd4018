/**
 * The expiry sweeper: a charge whose deposit has not arrived by `expiresAt` becomes EXPIRED, with its
 * event, and stops counting against the customer's limits. Claims with SKIP LOCKED, so several
 * processes sweep side by side without touching the same charge.
 */

import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/types.ts';
import { claimExpired } from './repo.ts';
import { transitionTransaction } from './transition.ts';

export async function expireDueTransactions(db: Database, clock: Clock, batch = 100): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await claimExpired(tx, clock(), batch);
    for (const row of due) {
      await transitionTransaction(tx, row, 'EXPIRED', clock(), {
        failure_reason: `No deposit arrived before ${row.expires_at!.toISOString()}`,
      });
    }
    return due.length;
  });
}
