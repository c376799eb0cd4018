import { newId } from '../../../core/ids.ts';
import type { Executor } from '../../../db/types.ts';
import type { Environment } from '../../../lib/environment.ts';

export type DepositOutcome = 'APPLIED' | 'HELD_FOR_REFUND' | 'UNMATCHED';

export type PixDepositRow = {
  end_to_end_id: string;
  environment: Environment;
  txid: string;
  transaction_id: string | null;
  amount: bigint;
  paid_at: Date;
  outcome: DepositOutcome;
  payload: unknown;
  received_at: Date;
};

/** Records a reported payment once; false when its end-to-end id was already recorded. */
export async function insertDepositOnce(db: Executor, row: PixDepositRow): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO pix_deposits (end_to_end_id, environment, txid, transaction_id, amount, paid_at, outcome,
                               payload, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (end_to_end_id) DO NOTHING
     RETURNING end_to_end_id`,
    [
      row.end_to_end_id,
      row.environment,
      row.txid,
      row.transaction_id,
      row.amount,
      row.paid_at,
      row.outcome,
      JSON.stringify(row.payload),
      row.received_at,
    ],
  );
  return rows.length === 1;
}

/**
 * The deposits of a transaction whose BRL is held for the customer and not yet sent back: those that
 * arrived when the charge no longer waited, and, when `includeApplied`, the one that funded a
 * transaction that then failed or expired.
 */
export async function refundableDeposits(
  db: Executor,
  transactionId: string,
  includeApplied: boolean,
): Promise<PixDepositRow[]> {
  return db.query<PixDepositRow>(
    `SELECT d.end_to_end_id, d.environment, d.txid, d.transaction_id, d.amount, d.paid_at, d.outcome, d.payload,
            d.received_at
       FROM pix_deposits d
      WHERE d.transaction_id = $1
        AND (d.outcome = 'HELD_FOR_REFUND' OR ($2 AND d.outcome = 'APPLIED'))
        AND NOT EXISTS (SELECT 1 FROM pix_payouts p
                         WHERE p.refunded_end_to_end_id = d.end_to_end_id AND p.status <> 'REJECTED')
      ORDER BY d.received_at`,
    [transactionId, includeApplied],
  );
}

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
