/**
 * Pricing a conversion for a tenant: the market rate in force, the platform's fee terms for the
 * transaction type, the partner's own terms, and the minimum a transaction must be worth. Used by the
 * quotes partners ask for and by the transactions that convert without one.
 */
import type { Config } from '../../config.ts';
import { type Currency, isFiat } from '../../core/currencies.ts';
import { AppError, invalidField } from '../../core/errors.ts';
import { formatAmount } from '../../core/money.ts';
import type { PartnerFeeTerms } from '../partner-fees/service.ts';
import {
  type FeeTerms,
  type Pricing,
  PricingError,
  type PricingInput,
  priceFromSource,
  priceFromTarget,
  UNIT_RATE,
} from './pricing.ts';

export type TransactionKind = 'ON_RAMP' | 'OFF_RAMP';

/** Fiat in (BRL, USD) is an on-ramp; a stablecoin in is an off-ramp. */
export const kindOf = (source: Currency): TransactionKind => (isFiat(source) ? 'ON_RAMP' : 'OFF_RAMP');

/** The platform's fee terms for a transaction type, from configuration. */
export function platformFeeTerms(config: Config, kind: TransactionKind): FeeTerms {
  const minimum = config.moneyOut.minimumFee;
  return kind === 'ON_RAMP'
    ? { basisPoints: config.onRamp.feeBasisPoints, flat: config.onRamp.feeFlat, minimum }
    : { basisPoints: config.moneyOut.offRampFeeBasisPoints, flat: config.moneyOut.offRampFeeFlat, minimum };
}

export const partnerTerms = (terms: PartnerFeeTerms): FeeTerms => ({ ...terms, minimum: 0n });

/** `rate`, or 503 when the pair has none. */
export function requireRate(pair: string, rate: bigint | undefined): bigint {
  if (rate === undefined) {
    throw new AppError(
      'service_unavailable',
      `No ${pair} rate is set; conversions of this pair are unavailable`,
    );
  }
  return rate;
}

export type ConversionRequest = {
  kind: TransactionKind;
  sourceCurrency: Currency;
  targetCurrency: Currency;
  amount: { source: bigint } | { target: bigint };
  /** Pointer of the amount field, for the answer when the amount does not work. */
  pointer: string;
};

export type PricedConversion = Pricing & { platformTerms: FeeTerms; partnerTerms: FeeTerms };

/**
 * The figures of a conversion at a rate and partner terms already read (reference-price.ts gives the
 * rate). `rateToBrl` is BRL per source unit, what the BRL fee terms and limits are counted at: for a pair
 * with BRL on one side the pair's own rate (the default); otherwise the caller reads it (`brlValueRate`).
 */
export function priceAt(
  config: Config,
  request: ConversionRequest,
  baseRate: bigint,
  partner: PartnerFeeTerms,
  rateToBrl: bigint = request.sourceCurrency === 'BRL' ? UNIT_RATE : baseRate,
): PricedConversion {
  const input: PricingInput = {
    sourceCurrency: request.sourceCurrency,
    targetCurrency: request.targetCurrency,
    baseRate,
    rateToBrl,
    platform: platformFeeTerms(config, request.kind),
    partner: partnerTerms(partner),
  };
  let pricing: Pricing;
  try {
    pricing =
      'source' in request.amount
        ? priceFromSource(input, request.amount.source)
        : priceFromTarget(input, request.amount.target);
  } catch (error) {
    if (error instanceof PricingError) throw invalidField(request.pointer, error.message);
    throw error;
  }
  assertMinimum(config, pricing.limitAmountBrl, request.pointer);
  return { ...pricing, platformTerms: input.platform, partnerTerms: input.partner };
}

/** Every transaction is worth at least the configured minimum, in BRL. */
export function assertMinimum(config: Config, valueBrl: bigint, pointer: string): void {
  const minimum = config.moneyOut.minimumAmount;
  if (valueBrl < minimum) {
    throw invalidField(pointer, `must be worth at least ${formatAmount(minimum)} BRL`);
  }
}
