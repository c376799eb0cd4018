/**
 * The rules of a limit request that need no database: its statuses (seed 3.1) and the amount rules: at least
 * one amount, each a strictly positive amount of at most 13 digits and 2 decimals, and the given ones ordered
 * single <= daily <= monthly.
 */
import type { FieldError } from '../../core/errors.ts';
import { AMOUNT_PATTERN, parseAmount } from '../../core/money.ts';

export const LIMIT_REQUEST_STATUSES = ['IN_REVIEW', 'APPROVED', 'PARTIALLY_APPROVED', 'REJECTED'] as const;
export type LimitRequestStatus = (typeof LIMIT_REQUEST_STATUSES)[number];

/** The three limits, smallest period first: the order the amounts must respect. */
export const LIMIT_KINDS = ['single', 'daily', 'monthly'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** Amounts as the API receives them; an absent (or null) key asks nothing for that limit. */
export type LimitAmountsInput = { [K in LimitKind]?: string | null | undefined };
/** Amounts in cents; null where nothing is asked or granted. */
export type LimitAmounts = Record<LimitKind, bigint | null>;

export type LimitsValidation = { ok: true; amounts: LimitAmounts } | { ok: false; errors: FieldError[] };

const AMOUNT = new RegExp(AMOUNT_PATTERN);
export const AMOUNT_FORMAT_MESSAGE = 'must be a positive amount with at most two decimals, such as "1500.00"';

/**
 * Checks a set of single/daily/monthly amounts and converts them to cents. `pointer` locates the object
 * in the request (`/body/requested`), so that each problem names the amount it is about.
 */
export function validateRequestedLimits(
  input: LimitAmountsInput,
  pointer = '/body/requested',
): LimitsValidation {
  const errors: FieldError[] = [];
  const amounts: LimitAmounts = { single: null, daily: null, monthly: null };
  let given = 0;
  for (const kind of LIMIT_KINDS) {
    const raw = input[kind];
    if (raw === undefined || raw === null) continue;
    given++;
    if (typeof raw !== 'string' || !AMOUNT.test(raw)) {
      errors.push({ pointer: `${pointer}/${kind}`, message: AMOUNT_FORMAT_MESSAGE });
      continue;
    }
    const cents = parseAmount(raw);
    if (cents <= 0n) {
      errors.push({ pointer: `${pointer}/${kind}`, message: 'must be greater than zero' });
      continue;
    }
    amounts[kind] = cents;
  }
  if (given === 0) {
    errors.push({ pointer, message: 'must give at least one of single, daily, monthly' });
  }
  // Each given amount must not exceed any given amount of a longer period; one problem per amount,
  // naming the nearest limit it exceeds.
  for (const [index, kind] of LIMIT_KINDS.entries()) {
    const value = amounts[kind];
    if (value === null) continue;
    const exceeded = LIMIT_KINDS.slice(index + 1).find((longer) => {
      const bound = amounts[longer];
      return bound !== null && value > bound;
    });
    if (exceeded) {
      errors.push({
        pointer: `${pointer}/${kind}`,
        message: `must not be greater than the ${exceeded} amount`,
      });
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, amounts };
}
