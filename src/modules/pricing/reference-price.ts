/**
 * The one rule that says at which rate a conversion is priced and which reference it carries, for quotes
 * and for on-ramps and off-ramps created without one alike:
 * - where the environment quotes from the market (`PONTE_RATES_SOURCE=chainlink`): an operator's override
 *   in force replaces the reference mid (source OPERATOR), else the feeds' mid (source CHAINLINK); the
 *   pair's spread is taken off either; with neither, 503 `rates_unavailable` with `Retry-After`;
 * - where it quotes from the operator's rates: the rate in force, or in the sandbox its default, is the
 *   price itself (source OPERATOR); with none, 503 `service_unavailable` as before.
 * An override past its expiry is never in force (the readers of rates leave it out).
 */
import type { Config } from '../../config.ts';
import type { Pair } from '../../core/currencies.ts';
import { AppError } from '../../core/errors.ts';
import type { Environment } from '../../lib/environment.ts';
import type { PairReference } from '../../rails/rates/reference.ts';
import { rateOrSandboxDefault } from './market.ts';
import { requireRate } from './quote.ts';
import type { ExchangeRateRow, ReferenceSource } from './quotes-repo.ts';
import type { RateInForce } from './rates-repo.ts';

/** The rate a conversion is priced at (`rate`, spread taken) and the reference mid it came from. */
export type PricedRate = { source: ReferenceSource; mid: bigint; rate: bigint; at: Date | null };

/** The mid less the operator's spread for the pair (rounded down: the spread never favours Ponte less). */
export const withSpread = (mid: bigint, spreadBps: number): bigint =>
  (mid * BigInt(10_000 - spreadBps)) / 10_000n;

export function rateToPrice(input: {
  config: Config;
  environment: Environment;
  pair: Pair;
  /** The pair's market reference as read (null: the environment quotes from the operator's rates). */
  market: PairReference | null;
  /** The rate in force for the pair (expired overrides already left out), or null. */
  inForce: RateInForce | null;
}): PricedRate {
  const { config, environment, pair, market, inForce } = input;
  if (market === null) {
    const rate = requireRate(
      pair,
      rateOrSandboxDefault(inForce?.rate ?? null, environment, pair, config.moneyOut.sandboxRates),
    );
    return { source: 'OPERATOR', mid: rate, rate, at: null };
  }
  const spread = config.rates[environment].spreadBps[pair] ?? 0;
  // a rate set while this environment quoted from the operator's rates has no expiry: it is no override
  if (inForce?.expiresAt) {
    return {
      source: 'OPERATOR',
      mid: inForce.rate,
      rate: withSpread(inForce.rate, spread),
      at: inForce.setAt,
    };
  }
  if (!market.usable) {
    throw new AppError('rates_unavailable', `No usable ${pair} market reference: ${market.reason}`, {
      retryAfterS: config.rates[environment].refreshS,
    });
  }
  return { source: 'CHAINLINK', mid: market.rate, rate: withSpread(market.rate, spread), at: market.at };
}

/** The columns a transaction keeps of the reference it was priced from. */
export type ReferenceColumns = Pick<ExchangeRateRow, 'reference_source' | 'reference_rate' | 'reference_at'>;

/** What a transaction priced at `priced` keeps of its reference. */
export const referenceColumns = (priced: PricedRate): ReferenceColumns => ({
  reference_source: priced.source,
  reference_rate: priced.mid,
  reference_at: priced.at,
});

/** What a transaction that uses a LOCKED quote keeps: the quote's own reference. */
export const quoteReferenceColumns = (quote: ExchangeRateRow): ReferenceColumns => ({
  reference_source: quote.reference_source ?? 'OPERATOR',
  reference_rate: quote.reference_rate ?? quote.base_rate,
  reference_at: quote.reference_at,
});
