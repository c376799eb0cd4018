/** PTAX bulletins as fetched (`ptax_bulletins`), one per business day: the newest is the anchor. */
import type { Executor } from '../../db/types.ts';
import type { PtaxBulletin } from '../../rails/rates/ptax.ts';

type Row = { day: string; buy: bigint; sell: bigint; published_at: string };

/** Keeps a day's bulletin (a later fetch of the same day replaces it: the BCB may correct one). */
export async function savePtax(db: Executor, bulletin: PtaxBulletin, fetchedAt: Date): Promise<void> {
  await db.query(
    `INSERT INTO ptax_bulletins (day, buy, sell, published_at, fetched_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (day) DO UPDATE SET buy = EXCLUDED.buy, sell = EXCLUDED.sell,
       published_at = EXCLUDED.published_at, fetched_at = EXCLUDED.fetched_at`,
    [bulletin.date, bulletin.buy, bulletin.sell, bulletin.publishedAt, fetchedAt],
  );
}

/** The newest bulletin kept, or undefined before the first fetch. */
export async function latestPtax(db: Executor): Promise<PtaxBulletin | undefined> {
  const rows = await db.query<Row>(
    "SELECT to_char(day, 'YYYY-MM-DD') AS day, buy, sell, published_at FROM ptax_bulletins ORDER BY day DESC LIMIT 1",
  );
  const row = rows[0];
  return (
    row && { date: row.day, buy: BigInt(row.buy), sell: BigInt(row.sell), publishedAt: row.published_at }
  );
}
