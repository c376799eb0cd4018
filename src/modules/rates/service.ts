import type { Clock } from '../../core/clock.ts';
import { formatDecimalTrimmed, parseDecimal } from '../../core/decimal.ts';
import { invalidField } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Database } from '../../db/types.ts';
import { type Actor, actorLabel, recordAudit } from '../operators/audit.ts';
import { RATE_INTEGER_DIGITS, RATE_SCALE } from './convert.ts';
import * as repo from './repo.ts';

export type RateView = { id: string; pair: repo.Pair; rate: string; setBy: string; setAt: string };

export const presentRate = (row: repo.RateRow): RateView => ({
  id: row.id,
  pair: row.pair,
  rate: formatDecimalTrimmed(row.rate, RATE_SCALE),
  setBy: row.set_by,
  setAt: row.created_at.toISOString(),
});

export function createRateService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function set(actor: Actor, pair: repo.Pair, rateText: string): Promise<RateView> {
    const rate = parseDecimal(rateText, RATE_SCALE, RATE_INTEGER_DIGITS);
    if (rate <= 0n) throw invalidField('/body/rate', 'must be greater than zero');
    const row: repo.RateRow = { id: newId(), pair, rate, set_by: actorLabel(actor), created_at: clock() };
    await db.transaction(async (tx) => {
      const before = await repo.currentRate(tx, pair);
      await repo.insertRate(tx, row);
      await recordAudit(tx, {
        actor,
        action: 'rate.set',
        resourceType: 'conversion_rate',
        resourceId: row.id,
        before: before ? { pair, rate: formatDecimalTrimmed(before.rate, RATE_SCALE) } : undefined,
        after: { pair, rate: formatDecimalTrimmed(rate, RATE_SCALE) },
        at: row.created_at,
      });
    });
    return presentRate(row);
  }

  async function list(): Promise<{ data: RateView[] }> {
    return { data: (await repo.currentRates(db)).map(presentRate) };
  }

  return { set, list };
}

/** The rate in force for a pair, as settlement reads it within its transaction. */
export { currentRate, currentRatePart, currentRateSql, type Pair, type RateColumns } from './repo.ts';
