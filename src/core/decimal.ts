/**
 * Exact decimals held as bigint units at an explicit scale: 1500.00 BRL is 150000n at scale 2,
 * 182.537750 USDC is 182537750n at scale 6, a rate of 0.1834 is 1834000000n at scale 10.
 * Nothing here touches floating point; every rounding is named by the function that does it.
 */

export const pow10 = (exponent: number): bigint => 10n ** BigInt(exponent);

/**
 * Parses a non-negative decimal with at most `maxIntegerDigits` digits before the point and at most
 * `scale` after it ("0.1834", "5", "1500.50") into units at `scale`. Throws RangeError on anything else.
 */
export function parseDecimal(text: string, scale: number, maxIntegerDigits = 18): bigint {
  const fraction = scale > 0 ? `(?:\\.(\\d{1,${scale}}))?` : '';
  const match = new RegExp(`^(\\d{1,${maxIntegerDigits}})${fraction}$`).exec(text);
  if (!match) throw new RangeError(`not a decimal with at most ${scale} decimals: ${text}`);
  return BigInt(match[1]!) * pow10(scale) + BigInt((match[2] ?? '').padEnd(scale, '0') || '0');
}

/** Formats units at `scale` with exactly `scale` decimals ("182.537750"). */
export function formatDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const unit = pow10(scale);
  const whole = (abs / unit).toString();
  const sign = negative ? '-' : '';
  if (scale === 0) return `${sign}${whole}`;
  return `${sign}${whole}.${(abs % unit).toString().padStart(scale, '0')}`;
}

/** Formats units at `scale` without trailing zeros in the fraction ("0.1834", "5"). */
export function formatDecimalTrimmed(units: bigint, scale: number): string {
  const text = formatDecimal(units, scale);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** n / d rounded down (toward zero for the non-negative operands money uses). */
export function divFloor(n: bigint, d: bigint): bigint {
  if (n < 0n || d <= 0n) throw new RangeError('divFloor takes n >= 0 and d > 0');
  return n / d;
}

/** n / d rounded to the nearest unit, halves away from zero. */
export function divRoundHalfUp(n: bigint, d: bigint): bigint {
  if (n < 0n || d <= 0n) throw new RangeError('divRoundHalfUp takes n >= 0 and d > 0');
  return (2n * n + d) / (2n * d);
}
