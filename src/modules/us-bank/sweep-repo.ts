/** Where each environment's sweep of the US bank's inbound transfers has got. */
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

export async function sweptThrough(db: Executor, environment: Environment): Promise<Date | undefined> {
  const rows = await db.query<{ swept_through: Date }>(
    `SELECT swept_through FROM bank_sweeps WHERE bank = 'INCREASE' AND environment = $1`,
    [environment],
  );
  return rows[0]?.swept_through;
}

/** Records a complete sweep up to `through` (never moving the mark back). */
export async function recordSweep(
  db: Executor,
  environment: Environment,
  through: Date,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO bank_sweeps (bank, environment, swept_through, swept_at) VALUES ('INCREASE', $1, $2, $3)
     ON CONFLICT (bank, environment) DO UPDATE
       SET swept_through = greatest(bank_sweeps.swept_through, EXCLUDED.swept_through), swept_at = EXCLUDED.swept_at`,
    [environment, through, at],
  );
}
