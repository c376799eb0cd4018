/**
 * Limits in force for a customer: the configured defaults for the
 * customer's type, with each limit replaced by the latest APPROVED or PARTIALLY_APPROVED request that
 * grants it. Amounts are cents.
 */
import type { LimitSet } from '../../config.ts';
import { readOne } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import { type Granted, grantsFact } from './repo.ts';

/** What a creation reads of the limits granted, with its other facts: by the customer's id. */
export { type Granted, grantsFact } from './repo.ts';

/** The limits in force, from those granted and the defaults of the customer's type. */
export function limitsFrom(granted: Granted, defaults: LimitSet): LimitSet {
  return {
    single: granted.single ?? defaults.single,
    daily: granted.daily ?? defaults.daily,
    monthly: granted.monthly ?? defaults.monthly,
  };
}

export async function limitsInForce(db: Executor, customerId: string, defaults: LimitSet): Promise<LimitSet> {
  return limitsFrom(await readOne(db, grantsFact, customerId), defaults);
}
