/**
 * What `/readyz` on the operator listener says of the rates: for each pair, whether a rate is in force
 * (`available`) or none was ever set (`missing`: its quotes and ramps answer 503 until an operator sets
 * one). A missing rate does not make the process unready: the operator sets it through this process.
 */
import { PAIRS } from '../core/currencies.ts';
import type { Executor } from '../db/types.ts';

export async function ratesDetail(
  db: Executor,
  ratesSetAt: (db: Executor) => Promise<{ pair: string }[]>,
): Promise<{ rates: Record<string, 'available' | 'missing'> }> {
  const set = new Set((await ratesSetAt(db)).map((row) => row.pair));
  return { rates: Object.fromEntries(PAIRS.map((pair) => [pair, set.has(pair) ? 'available' : 'missing'])) };
}
