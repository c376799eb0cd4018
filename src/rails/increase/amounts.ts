/**
 * Increase counts money in the minor unit of the currency, as an integer: cents for USD
 * (https://increase.com/documentation/api, every `amount`). Ponte holds it as a bigint; the SDK as a
 * JavaScript number, exact up to 2^53 cents.
 */

/** US cents, positive. */
export type IncreaseAmount = bigint;

export function toIncreaseAmount(cents: IncreaseAmount): number {
  if (cents <= 0n || cents > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`an Increase amount is a positive whole number of cents, got ${cents}`);
  }
  return Number(cents);
}

export function fromIncreaseAmount(amount: number): IncreaseAmount {
  if (!Number.isSafeInteger(amount))
    throw new RangeError(`Increase answered a non-integer amount: ${amount}`);
  return BigInt(amount);
}
