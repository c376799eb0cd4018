/**
 * Amounts of any ledger currency at the API edge: fiat with exactly two decimals, stablecoins with six.
 * Parsing accepts up to the currency's decimals.
 */

import { CURRENCY_SCALE, type Currency } from '../../core/currencies.ts';
import { formatDecimal, parseDecimal } from '../../core/decimal.ts';

/** Digits before the point: 13 for fiat (as every BRL amount), 12 for stablecoins (fits a bigint). */
const INTEGER_DIGITS: Record<Currency, number> = { BRL: 13, USD: 13, USDC: 12, USDT: 12 };

/** Any amount a route may receive before its currency is known: up to 13 digits and 6 decimals. */
export const ANY_AMOUNT_PATTERN = '^\\d{1,13}(\\.\\d{1,6})?$';

/** Units at the currency's scale, or a message saying what is wrong. */
export function parseCurrencyAmount(text: string, currency: Currency): bigint | string {
  const scale = CURRENCY_SCALE[currency];
  try {
    const units = parseDecimal(text, scale, INTEGER_DIGITS[currency]);
    return units > 0n ? units : 'must be greater than zero';
  } catch {
    return `must be a ${currency} amount with at most ${INTEGER_DIGITS[currency]} digits and ${scale} decimals`;
  }
}

export const formatCurrencyAmount = (units: bigint, currency: Currency): string =>
  formatDecimal(units, CURRENCY_SCALE[currency]);

export const money = (units: bigint, currency: Currency) => ({
  amount: formatCurrencyAmount(units, currency),
  currency,
});
