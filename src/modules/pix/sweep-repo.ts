import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

export type SweepClaim = { sweptTo: Date | null };

/**
 * Claims the environment's sweep when it is due and no other process holds it: the lease keeps others
 * off for `leaseMs`, after which a sweep whose process died is taken over.
 */
export async function claimSweep(
  db: Executor,
  environment: Environment,
  now: Date,
  leaseMs: number,
): Promise<SweepClaim | null> {
  await db.query(
    `INSERT INTO pix_sweeps (environment, next_at) VALUES ($1, $2) ON CONFLICT (environment) DO NOTHING`,
    [environment, now],
  );
  const rows = await db.query<{ swept_to: Date | null }>(
    `UPDATE pix_sweeps SET lease_until = $2::timestamptz + $3 * interval '1 millisecond', last_started_at = $2
      WHERE environment = $1 AND next_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
      RETURNING swept_to`,
    [environment, now, leaseMs],
  );
  return rows[0] ? { sweptTo: rows[0].swept_to } : null;
}

export async function endSweep(
  db: Executor,
  environment: Environment,
  outcome: {
    complete: boolean;
    from: Date;
    to: Date;
    now: Date;
    nextAt: Date;
    calls: number;
    items: number;
    applied: number;
    error: string | null;
  },
): Promise<void> {
  await db.query(
    `UPDATE pix_sweeps
        SET swept_to = CASE WHEN $2 THEN $3 ELSE swept_to END,
            completed_at = CASE WHEN $2 THEN $4 ELSE completed_at END,
            next_at = $5, lease_until = NULL, last_calls = $6, last_applied = $7, last_error = $8,
            complete_from = CASE WHEN $2 THEN $9 ELSE complete_from END,
            complete_calls = CASE WHEN $2 THEN $6 ELSE complete_calls END,
            complete_items = CASE WHEN $2 THEN $10 ELSE complete_items END,
            complete_applied = CASE WHEN $2 THEN $7 ELSE complete_applied END
      WHERE environment = $1`,
    [
      environment,
      outcome.complete,
      outcome.to,
      outcome.now,
      outcome.nextAt,
      outcome.calls,
      outcome.applied,
      outcome.error,
      outcome.from,
      outcome.items,
    ],
  );
}

/** Of these end-to-end ids, those Ponte has recorded as received. */
export async function recordedDeposits(db: Executor, endToEndIds: string[]): Promise<Set<string>> {
  if (endToEndIds.length === 0) return new Set();
  const rows = await db.query<{ end_to_end_id: string }>(
    'SELECT end_to_end_id FROM pix_deposits WHERE end_to_end_id = ANY($1::text[])',
    [endToEndIds],
  );
  return new Set(rows.map((row) => row.end_to_end_id));
}

export type SweepState = {
  environment: Environment;
  swept_to: Date | null;
  completed_at: Date | null;
  next_at: Date;
  last_calls: number;
  last_applied: number;
  last_error: string | null;
};

export async function sweepStates(db: Executor): Promise<SweepState[]> {
  return db.query<SweepState>(
    `SELECT environment, swept_to, completed_at, next_at, last_calls, last_applied, last_error
       FROM pix_sweeps ORDER BY environment`,
  );
}

export async function recordApplyFailure(
  db: Executor,
  environment: Environment,
  source: 'notification' | 'sweep',
  item: unknown,
  reason: string,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO pix_notification_rejects (id, item, reason, received_at, environment, source)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5)`,
    [JSON.stringify(item ?? null), reason.slice(0, 1000), at, environment, source],
  );
}
