import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

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
