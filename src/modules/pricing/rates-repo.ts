/**
 * Market rates as the operator sets them (`conversion_rates`): the newest one for a pair is in force. Where
 * quotes are priced from the market reference, each is an override with its expiry (and, when set outside
 * the band around the reference, `forced` with the operator's reason).
 */
import type { Pair } from '../../core/currencies.ts';
import { readFact } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';

export type RateRow = {
  id: string;
  pair: Pair;
  rate: bigint;
  set_by: string;
  created_at: Date;
  expires_at: Date | null;
  forced: boolean;
  reason: string | null;
};

const COLUMNS = 'id, pair, rate, set_by, created_at, expires_at, forced, reason';

export async function insertRate(db: Executor, row: RateRow): Promise<void> {
  await db.query(`INSERT INTO conversion_rates (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
    row.id,
    row.pair,
    row.rate,
    row.set_by,
    row.created_at,
    row.expires_at,
    row.forced,
    row.reason,
  ]);
}

/** The rate in force for a pair: the newest one set. */
export async function currentRate(db: Executor, pair: Pair): Promise<RateRow | undefined> {
  const rows = await db.query<RateRow>(
    `SELECT ${COLUMNS} FROM conversion_rates
      WHERE pair = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
    [pair],
  );
  return rows[0];
}

/**
 * The rate in force for a pair at `now`: the newest one set, unless it is an override whose `expires_at`
 * has passed (an expired override is in force nowhere: not for prices, limits or readiness).
 */
export async function rateInForce(db: Executor, pair: Pair, now: Date): Promise<RateRow | undefined> {
  const newest = await currentRate(db, pair);
  return newest && !expired(newest, now) ? newest : undefined;
}

const expired = (row: Pick<RateRow, 'expires_at'>, now: Date) =>
  row.expires_at !== null && row.expires_at <= now;

/** A rate in force as a creation reads it beside its other facts. */
export type RateInForce = { rate: bigint; setAt: Date; expiresAt: Date | null };

type RateInForceColumns = {
  rate_in_force: bigint | null;
  rate_set_at: Date | null;
  rate_expires_at: Date | null;
};

/** What `currentRateFact` reads for a creation at `now` (null: its pair needs no rate). */
export const rateReadAt = (pair: Pair | null, now: Date) => (pair === null ? null : { pair, now });

/** `rateInForce` as a fact of a combined read (null: none in force, or no pair asked). */
export const currentRateFact = readFact({
  text: `SELECT rate AS rate_in_force, created_at AS rate_set_at, expires_at AS rate_expires_at
           FROM (SELECT rate, created_at, expires_at FROM conversion_rates
                  WHERE pair = $1 ORDER BY created_at DESC, id DESC LIMIT 1) AS newest
          WHERE expires_at IS NULL OR expires_at > $2`,
  types: ['text', 'timestamptz'],
  params: (read: { pair: Pair; now: Date } | null) => [read?.pair ?? null, read?.now ?? null],
  decode: (row: Partial<RateInForceColumns>): RateInForce | null =>
    row.rate_in_force === null || row.rate_in_force === undefined
      ? null
      : { rate: row.rate_in_force, setAt: row.rate_set_at!, expiresAt: row.rate_expires_at ?? null },
});

export async function currentRates(db: Executor): Promise<RateRow[]> {
  return db.query<RateRow>(
    `SELECT DISTINCT ON (pair) ${COLUMNS} FROM conversion_rates
      ORDER BY pair, created_at DESC, id DESC`,
  );
}

/** The rates in force at `now`, one per pair that has one (an expired override leaves its pair without). */
export async function ratesInForce(db: Executor, now: Date): Promise<RateRow[]> {
  return (await currentRates(db)).filter((row) => !expired(row, now));
}

/** The override of a pair's market reference in force at `now`: the newest rate set, while it has not expired. */
export async function overrideInForce(db: Executor, pair: Pair, now: Date): Promise<RateRow | undefined> {
  const newest = await rateInForce(db, pair, now);
  return newest?.expires_at ? newest : undefined;
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
