/** Market rates as the operator sets them (`conversion_rates`): the newest one for a pair is in force. */
import type { Pair } from '../../core/currencies.ts';
import { readFact } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';

export type RateRow = { id: string; pair: Pair; rate: bigint; set_by: string; created_at: Date };

export async function insertRate(db: Executor, row: RateRow): Promise<void> {
  await db.query(
    'INSERT INTO conversion_rates (id, pair, rate, set_by, created_at) VALUES ($1, $2, $3, $4, $5)',
    [row.id, row.pair, row.rate, row.set_by, row.created_at],
  );
}

/** The rate in force for a pair: the newest one set. */
export async function currentRate(db: Executor, pair: Pair): Promise<RateRow | undefined> {
  const rows = await db.query<RateRow>(
    `SELECT id, pair, rate, set_by, created_at FROM conversion_rates
      WHERE pair = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
    [pair],
  );
  return rows[0];
}

/** The rate in force for a pair (null: none set, or no pair asked), as a fact of a combined read. */
export const currentRateFact = readFact({
  text: 'SELECT rate AS rate_in_force FROM conversion_rates WHERE pair = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
  types: ['text'],
  params: (pair: Pair | null) => [pair],
  decode: (row: { rate_in_force?: bigint | null }): bigint | null => row.rate_in_force ?? null,
});

export async function currentRates(db: Executor): Promise<RateRow[]> {
  return db.query<RateRow>(
    `SELECT DISTINCT ON (pair) id, pair, rate, set_by, created_at FROM conversion_rates
      ORDER BY pair, created_at DESC, id DESC`,
  );
}

/** The rates set for each pair since `since`, with the one already in force then, oldest first. */
export async function ratesSince(db: Executor, since: Date): Promise<RateRow[]> {
  return db.query<RateRow>(
    `SELECT id, pair, rate, set_by, created_at FROM (
       SELECT DISTINCT ON (pair) id, pair, rate, set_by, created_at FROM conversion_rates
        WHERE created_at < $1 ORDER BY pair, created_at DESC, id DESC) AS in_force
     UNION ALL
     SELECT id, pair, rate, set_by, created_at FROM conversion_rates WHERE created_at >= $1
     ORDER BY pair, created_at, id`,
    [since],
  );
}
