/**
 * The expiry sweeper: a charge whose deposit has not arrived by `expiresAt` becomes EXPIRED, with its
 * event, and stops counting against the customer's limits. Claims with SKIP LOCKED, so several
 * processes sweep side by side without touching the same charge.
 */

import type { Clock } from '../../core/clock.ts';
import type { Database, Executor } from '../../db/types.ts';
import { claimExpired, type TransactionRow } from './repo.ts';
import { transitionTransaction } from './transition.ts';

/** Expires a locked charge whose deposit window has passed: EXPIRED, its event, its limits released. */
export function expireCharge(tx: Executor, row: TransactionRow, at: Date): Promise<TransactionRow> {
  return transitionTransaction(tx, row, 'EXPIRED', at, {
    failure_reason: `No deposit arrived before ${row.expires_at!.toISOString()}`,
    failure_code: 'deposit_window_expired',
  });
}

export async function expireDueTransactions(db: Database, clock: Clock, batch = 100): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await claimExpired(tx, clock(), batch);
    for (const row of due) await expireCharge(tx, row, clock());
    return due.length;
  });
}
