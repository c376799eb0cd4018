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
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

export const formatNullableAmount = (cents: bigint | null): string | null =>
  cents === null ? null : formatAmount(cents);
