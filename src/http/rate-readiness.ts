/**
 * What `/readyz` on the operator listener says of the rates: for each pair, whether a rate is in force
 * (`available`) or none was ever set (`missing`: its quotes and ramps answer 503 until an operator sets
 * one). A missing rate does not make the process unready: the operator sets it through this process.
 * Where an environment quotes from the market reference, `marketReference` says per pair whether it is
 * usable now, and if not why; an unusable one makes that pair's quotes answer 503, not the process unready.
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

type Readiness = { usable: boolean; reason?: string };

/** The market reference's readiness per environment and pair, where one is configured (else nothing). */
export function marketReferenceDetail(readiness: () => Partial<Record<string, Record<string, Readiness>>>): {
  marketReference?: Partial<Record<string, Record<string, Readiness>>>;
} {
  const found = readiness();
  return Object.keys(found).length > 0 ? { marketReference: found } : {};
}
