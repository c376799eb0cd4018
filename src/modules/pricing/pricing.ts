/**
 * The arithmetic of every conversion, exact to the unit, in both directions (BRL → stablecoin for
 * on-ramps, stablecoin or BRL → BRL for off-ramps):
 * - fees are charged in the source currency: basis points of the source amount (rounded half up) plus
 *   a flat amount; the platform's fee is at least its minimum. Flat amounts and the minimum are set in
 *   BRL and, for a stablecoin source, converted at the base rate (rounded up to the unit);
 * - net = source − fees, so fees + net = source, always;
 * - target = net × base rate, rounded down to the target's scale: the customer never receives more
 *   than the rate gives, and the remainder stays with the conversion desk.
 * Rates are target units per source unit at scale 10. An on-ramp is the case BRL → stablecoin: its fee
 * is basis points of the amount rounded half up to the cent plus the flat fee (`onRampFee`).
 */
import { CURRENCY_SCALE, type Currency } from '../../core/currencies.ts';
import { divRoundHalfUp, pow10 } from '../../core/decimal.ts';

/** Digits after the point of a rate (target units per source unit). */
export const RATE_SCALE = 10;
/** Up to 8 digits before the point keeps every rate (scale 10) inside a bigint column. */
export const RATE_INTEGER_DIGITS = 8;
export const RATE_PATTERN = `^\\d{1,${RATE_INTEGER_DIGITS}}(\\.\\d{1,${RATE_SCALE}})?$`;

export type FeeTerms = {
  basisPoints: number;
  /** BRL cents. */
  flat: bigint;
  /** BRL cents: the smallest fee charged. */
  minimum: bigint;
};

export type Pricing = {
  sourceCurrency: Currency;
  targetCurrency: Currency;
  source: bigint;
  platformFee: bigint;
  partnerFee: bigint;
  fee: bigint;
  net: bigint;
  baseRate: bigint;
  target: bigint;
  /** The source amount's value in BRL: what the transaction counts against limits. */
  limitAmountBrl: bigint;
};

/**
 * BRL per US dollar through a stablecoin: USD→coin × coin→BRL (the references' mids). What a dollar
 * counts against the BRL limits and fee terms, for quotes and for dollars received alike.
 */
export const dollarInBrl = (usdToCoin: bigint, coinToBrl: bigint): bigint =>
  (usdToCoin * coinToBrl) / UNIT_RATE;

/** The rate of a conversion between the same currency: 1. */
export const UNIT_RATE = pow10(RATE_SCALE);
const INT8_MAX = 9_223_372_036_854_775_807n;

export class PricingError extends Error {}

const ceilDiv = (n: bigint, d: bigint): bigint => (n + d - 1n) / d;

/** BRL cents expressed in the source currency (rounded up), given target-per-source `rate` into BRL. */
export function brlInSource(cents: bigint, source: Currency, rateToBrl: bigint): bigint {
  if (source === 'BRL' || cents === 0n) return cents;
  return ceilDiv(cents * pow10(CURRENCY_SCALE[source] + RATE_SCALE - CURRENCY_SCALE.BRL), rateToBrl);
}

/** The BRL value of a source amount (rounded down), given its rate into BRL. */
export function sourceInBrl(amount: bigint, source: Currency, rateToBrl: bigint): bigint {
  if (source === 'BRL') return amount;
  return (amount * rateToBrl) / pow10(CURRENCY_SCALE[source] + RATE_SCALE - CURRENCY_SCALE.BRL);
}

/** Source units × rate → target units, rounded down. */
export function convert(net: bigint, source: Currency, target: Currency, rate: bigint): bigint {
  return (net * rate) / pow10(CURRENCY_SCALE[source] + RATE_SCALE - CURRENCY_SCALE[target]);
}

export type PricingInput = {
  sourceCurrency: Currency;
  targetCurrency: Currency;
  baseRate: bigint;
  /** Rate of the source currency into BRL, for flat fees, minimums and the limit value. */
  rateToBrl: bigint;
  platform: FeeTerms;
  partner: FeeTerms;
};

/**
 * One party's fee on `source` units (before any minimum): basis points of the amount rounded half up to
 * the unit, plus the flat BRL amount expressed in the source currency at `rateToBrl`.
 */
export function feeOn(
  source: bigint,
  currency: Currency,
  terms: Pick<FeeTerms, 'basisPoints' | 'flat'>,
  rateToBrl: bigint,
): bigint {
  return (
    divRoundHalfUp(source * BigInt(terms.basisPoints), 10_000n) + brlInSource(terms.flat, currency, rateToBrl)
  );
}

/** The fee on an on-ramp's BRL amount (cents): basis points rounded half up to the cent, plus the flat fee. */
export function onRampFee(amount: bigint, terms: Pick<FeeTerms, 'basisPoints' | 'flat'>): bigint {
  return feeOn(amount, 'BRL', terms, UNIT_RATE);
}

function fees(input: PricingInput, source: bigint): { platform: bigint; partner: bigint } {
  const part = (terms: FeeTerms) => feeOn(source, input.sourceCurrency, terms, input.rateToBrl);
  const minimum = brlInSource(input.platform.minimum, input.sourceCurrency, input.rateToBrl);
  const platform = part(input.platform);
  return { platform: platform > minimum ? platform : minimum, partner: part(input.partner) };
}

function priced(input: PricingInput, source: bigint, target: bigint): Pricing {
  const { platform, partner } = fees(input, source);
  const net = source - platform - partner;
  if (net <= 0n) throw new PricingError('does not cover the fees');
  if (target <= 0n) throw new PricingError('converts to nothing at the rate in force');
  if (source > INT8_MAX || target > INT8_MAX) throw new PricingError('is too large');
  return {
    sourceCurrency: input.sourceCurrency,
    targetCurrency: input.targetCurrency,
    source,
    platformFee: platform,
    partnerFee: partner,
    fee: platform + partner,
    net,
    baseRate: input.baseRate,
    target,
    limitAmountBrl: sourceInBrl(source, input.sourceCurrency, input.rateToBrl),
  };
}

/** The figures of converting `source` units of the source currency. */
export function priceFromSource(input: PricingInput, source: bigint): Pricing {
  const { platform, partner } = fees(input, source);
  const net = source - platform - partner;
  if (net <= 0n) throw new PricingError('does not cover the fees');
  return priced(input, source, convert(net, input.sourceCurrency, input.targetCurrency, input.baseRate));
}

/**
 * The figures of delivering exactly `target` units: the smallest source amount whose net converts to
 * at least `target`; the customer receives `target`.
 */
export function priceFromTarget(input: PricingInput, target: bigint): Pricing {
  const scaleGap = pow10(
    CURRENCY_SCALE[input.sourceCurrency] + RATE_SCALE - CURRENCY_SCALE[input.targetCurrency],
  );
  const needNet = ceilDiv(target * scaleGap, input.baseRate);
  const netOf = (source: bigint) => {
    const f = fees(input, source);
    return source - f.platform - f.partner;
  };
  const bps = BigInt(input.platform.basisPoints + input.partner.basisPoints);
  if (bps >= 10_000n) throw new PricingError('cannot be reached: the fees take the whole amount');
  const flats =
    brlInSource(input.platform.flat, input.sourceCurrency, input.rateToBrl) +
    brlInSource(input.partner.flat, input.sourceCurrency, input.rateToBrl);
  let source = ceilDiv((needNet + flats) * 10_000n, 10_000n - bps);
  const minimumTotal = needNet + brlInSource(input.platform.minimum, input.sourceCurrency, input.rateToBrl);
  if (source < minimumTotal) source = minimumTotal;
  // fees grow slower than the amount, so adding the shortfall converges in a few steps
  for (let guard = 0, net = netOf(source); net < needNet; guard++, net = netOf(source)) {
    if (guard > 64) throw new PricingError('cannot be priced');
    source += needNet - net;
  }
  for (let guard = 0; source > 1n && netOf(source - 1n) >= needNet; guard++) {
    if (guard > 1_000) throw new PricingError('cannot be priced');
    source--;
  }
  return priced(input, source, target);
}

/** Target units per source unit after fees (target ÷ source), at scale 10, rounded down. */
export function effectiveRate(
  source: bigint,
  sourceCurrency: Currency,
  target: bigint,
  targetCurrency: Currency,
) {
  return (
    (target * pow10(CURRENCY_SCALE[sourceCurrency] + RATE_SCALE)) /
    (source * pow10(CURRENCY_SCALE[targetCurrency]))
  );
}
