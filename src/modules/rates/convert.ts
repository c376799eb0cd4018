/**
 * The arithmetic of an on-ramp, exact to the unit:
 * - fee = amount × basis points / 10 000, rounded half up to the cent, plus the flat fee;
 * - net = amount − fee (so fee + net = amount, always);
 * - target = net × rate, rounded down to the stablecoin's 6 decimals: the customer never receives
 *   more than the rate gives, and the remainder (under 0.000001) stays with the conversion desk.
 * BRL is in cents (scale 2), stablecoins in micro-units (scale 6), rates in units of the target per
 * unit of BRL at scale 10.
 */
import { divFloor, divRoundHalfUp, pow10 } from '../../core/decimal.ts';

export const FIAT_SCALE = 2;
export const STABLECOIN_SCALE = 6;
export const RATE_SCALE = 10;
/** Up to 8 digits before the point keeps every rate (scale 10) inside a bigint column. */
export const RATE_INTEGER_DIGITS = 8;
export const RATE_PATTERN = `^\\d{1,${RATE_INTEGER_DIGITS}}(\\.\\d{1,${RATE_SCALE}})?$`;

export type FeeTerms = { basisPoints: number; flat: bigint };
export type Conversion = { source: bigint; fee: bigint; net: bigint; rate: bigint; target: bigint };

export function onRampFee(source: bigint, terms: FeeTerms): bigint {
  return divRoundHalfUp(source * BigInt(terms.basisPoints), 10_000n) + terms.flat;
}

/** net (cents) × rate (scale 10) → target micro-units (scale 6), rounded down. */
export function convertAmount(net: bigint, rate: bigint): bigint {
  return divFloor(net * rate, pow10(FIAT_SCALE + RATE_SCALE - STABLECOIN_SCALE));
}

export function convertOnRamp(source: bigint, terms: FeeTerms, rate: bigint): Conversion {
  const fee = onRampFee(source, terms);
  const net = source - fee;
  return { source, fee, net, rate, target: net > 0n ? convertAmount(net, rate) : 0n };
}
