/** The `wallet_seeds` table: one encrypted HD seed per environment, shared by every process. */
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

/** Stores the environment's seed unless one is there already (the first process to start wins). */
export async function insertSeedOnce(
  db: Executor,
  environment: Environment,
  ciphertext: string,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO wallet_seeds (environment, ciphertext, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (environment) DO NOTHING`,
    [environment, ciphertext, now],
  );
}

export async function seedCiphertext(db: Executor, environment: Environment): Promise<string> {
  const rows = await db.query<{ ciphertext: string }>(
    `SELECT ciphertext FROM wallet_seeds WHERE environment = $1`,
    [environment],
  );
  return rows[0]!.ciphertext;
}
