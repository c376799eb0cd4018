/**
 * The expiry sweeper: a charge whose deposit has not arrived by `expiresAt` becomes EXPIRED, with its
 * event, and stops counting against the customer's limits. Claims with SKIP LOCKED, so several
 * processes sweep side by side without touching the same charge.
 */

import type { Clock } from '../../core/clock.ts';
import type { Database, Executor } from '../../db/types.ts';
import { brlRailOf, type FiatRails } from '../../rails/fiat-rails.ts';
import { claimExpired, type TransactionRow } from '../transactions/read-service.ts';
import { moveOnRamp } from './state.ts';

/** Expires a locked charge whose deposit window has passed: EXPIRED, its event, its limits released. */
export function expireCharge(tx: Executor, row: TransactionRow, at: Date): Promise<TransactionRow> {
  return moveOnRamp(tx, row, 'EXPIRED', at, {
    failure_reason: `No deposit arrived before ${row.expires_at!.toISOString()}`,
    failure_code: 'deposit_window_expired',
  });
}

/**
 * With a rail that collects at a provider, each expired charge is then cancelled there (a PSP's `PATCH
 * /cob/{txid}`), after the commit and with no connection held; should that call fail, the PSP ends the
 * charge all the same at its own expiry (`calendario.expiracao` is the same deposit window), and a
 * payment that still arrives is held for refund.
 */
export async function expireDueTransactions(
  db: Database,
  clock: Clock,
  batch = 100,
  pix?: FiatRails,
): Promise<number> {
  const due = await db.transaction(async (tx) => {
    const claimed = await claimExpired(tx, clock(), batch);
    for (const row of claimed) await expireCharge(tx, row, clock());
    return claimed;
  });
  for (const row of due) {
    const rail = pix && brlRailOf(pix, row.environment);
    if (rail?.collectsRemotely && row.pix_txid) {
      pix!.track(rail.cancelCollection(row.pix_txid), { transactionId: row.id });
    }
  }
  return due.length;
}
