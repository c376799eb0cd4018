/** The reads behind the console's PIX rail page: sweeps, sends awaiting the PSP, items not applied. */
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

export type LastCompleteSweep = {
  environment: Environment;
  completed_at: Date | null;
  complete_from: Date | null;
  swept_to: Date | null;
  complete_calls: number | null;
  complete_items: number | null;
  complete_applied: number | null;
  next_at: Date;
  last_started_at: Date | null;
  last_error: string | null;
};

export async function sweepRecords(db: Executor): Promise<LastCompleteSweep[]> {
  return db.query<LastCompleteSweep>(
    `SELECT environment, completed_at, complete_from, swept_to, complete_calls, complete_items, complete_applied,
            next_at, last_started_at, last_error
       FROM pix_sweeps ORDER BY environment`,
  );
}

export type AwaitingSend = {
  end_to_end_id: string;
  environment: Environment;
  transaction_id: string;
  kind: 'OFF_RAMP' | 'REFUND';
  amount: string;
  status: 'PENDING' | 'SUBMITTED';
  attempts: number;
  psp_end_to_end_id: string | null;
  created_at: Date;
};

/** Sends handed to the PSP whose result is not known yet (accepted, or tried with no answer), oldest first. */
export async function awaitingSends(
  db: Executor,
  environment: Environment,
  limit: number,
): Promise<AwaitingSend[]> {
  return db.query<AwaitingSend>(
    `SELECT end_to_end_id, environment, transaction_id, kind, amount::text AS amount, status, attempts,
            psp_end_to_end_id, created_at
       FROM pix_payouts
      WHERE environment = $1 AND rail = 'PIX' AND (status = 'SUBMITTED' OR (status = 'PENDING' AND attempts > 0))
      ORDER BY created_at, end_to_end_id
      LIMIT $2`,
    [environment, limit],
  );
}

export type ApplyFailure = {
  id: string;
  environment: Environment | null;
  source: string;
  item: unknown;
  reason: string;
  received_at: Date;
};

/** Items that could not be applied, newest first; `null` reads those whose environment was not recorded. */
export async function applyFailures(
  db: Executor,
  environment: Environment | null,
  limit: number,
): Promise<ApplyFailure[]> {
  return db.query<ApplyFailure>(
    `SELECT id, environment, source, item, reason, received_at
       FROM pix_notification_rejects
      WHERE environment IS NOT DISTINCT FROM $1
      ORDER BY received_at DESC, id DESC
      LIMIT $2`,
    [environment, limit],
  );
}
