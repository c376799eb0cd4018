/**
 * Enforces the limits in force on a new money movement and reserves its BRL value in the customer's
 * running daily and monthly totals. Runs under the customer's row lock, in the transaction that inserts
 * the new movement, so that concurrent requests (on any number of processes) are checked one after the
 * other against everything committed before them. The movement's move to FAILED or EXPIRED releases it
 * (`releaseLimitUsage`).
 */
import type { LimitSet } from '../../config.ts';
import { AppError } from '../../core/errors.ts';
import { formatAmount } from '../../core/money.ts';
import type { Executor } from '../../db/types.ts';
import { limitsInForce } from '../limits/in-force.ts';
import { reserveLimitUsage } from '../limits/usage.ts';

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

export async function assertWithinLimits(
  tx: Executor,
  customerId: string,
  defaults: LimitSet,
  amount: bigint,
  at: Date,
): Promise<void> {
  const limits = await limitsInForce(tx, customerId, defaults);
  if (amount > limits.single) throw exceeded('single', amount, limits.single, null);
  const { reserved, before: usage } = await reserveLimitUsage(tx, customerId, amount, at, limits);
  if (reserved) return;
  if (usage.daily + amount > limits.daily) throw exceeded('daily', amount, limits.daily, usage.daily);
  throw exceeded('monthly', amount, limits.monthly, usage.monthly);
}
