/**
 * Enforces the limits in force on a new money movement against the customer's running daily and monthly
 * totals, read under the customer's row lock in the transaction that inserts the movement and adds its
 * BRL value to them, so that concurrent requests (on any number of processes) are checked one after the
 * other against everything committed before them. The movement's move to FAILED or EXPIRED releases it
 * (`releaseLimitUsage`).
 */
import type { LimitSet } from '../../config.ts';
import { AppError } from '../../core/errors.ts';
import { formatAmount } from '../../core/money.ts';
import type { Usage } from '../limits/usage.ts';

type LimitName = 'single' | 'daily' | 'monthly';

const PERIOD: Record<LimitName, string> = {
  single: 'per-transaction',
  daily: 'daily (UTC day)',
  monthly: 'monthly (UTC month)',
};

function exceeded(limit: LimitName, amount: bigint, max: bigint, used: bigint | null): AppError {
  const remaining = used === null ? max : max > used ? max - used : 0n;
  return new AppError(
    'limit_exceeded',
    `The amount ${formatAmount(amount)} exceeds what remains of the ${PERIOD[limit]} limit: ` +
      `${formatAmount(remaining)} of ${formatAmount(max)} BRL`,
    {
      extra: {
        limit,
        max: formatAmount(max),
        ...(used === null ? {} : { used: formatAmount(used) }),
        remaining: formatAmount(remaining),
      },
    },
  );
}

/**
 * Refuses `amount` when it exceeds the single limit, or would take the day's or the month's usage past
 * its limit. `usage` must have been read under the customer's row lock, in the transaction that then
 * adds the amount to it (`addUsageFact`).
 */
export function assertWithinLimits(limits: LimitSet, usage: Usage, amount: bigint): void {
  if (amount > limits.single) throw exceeded('single', amount, limits.single, null);
  if (usage.daily + amount > limits.daily) throw exceeded('daily', amount, limits.daily, usage.daily);
  if (usage.monthly + amount > limits.monthly)
    throw exceeded('monthly', amount, limits.monthly, usage.monthly);
}
