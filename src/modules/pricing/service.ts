/**
 * Pricing's public surface. Market rates: the operator sets the rate of a pair, audited, and the newest
 * one is in force. Quotes: FLOATING is indicative; LOCKED guarantees its
 * figures until `expiresAt` to the one on-ramp or off-ramp that names it: using one locks its row,
 * refuses it when used or expired, and marks it used in the transaction that creates the transaction.
 */
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Clock } from '../../core/clock.ts';
import { type Currency, type FiatCurrency, PAIRS, type Pair } from '../../core/currencies.ts';
import { formatDecimalTrimmed, parseDecimal } from '../../core/decimal.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Database, Executor } from '../../db/types.ts';
import { ENVIRONMENTS, type Environment, type Tenant } from '../../lib/environment.ts';
import type { PairReference } from '../../rails/rates/reference.ts';
import { money, parseCurrencyAmount } from '../ledger/amounts.ts';
import { type Actor, actorLabel, recordAudit } from '../operators/audit.ts';
import { partnerFeeTerms } from '../partner-fees/service.ts';
import { pairOf } from './market.ts';
import { dollarInBrl, effectiveRate, RATE_INTEGER_DIGITS, RATE_SCALE } from './pricing.ts';
import { kindOf, priceAt } from './quote.ts';
import * as repo from './quotes-repo.ts';
import * as rates from './rates-repo.ts';
import { type PricedRate, rateToPrice, referenceColumns } from './reference-price.ts';

export type RateView = {
  id: string;
  pair: Pair;
  rate: string;
  setBy: string;
  setAt: string;
  expiresAt: string | null;
  forced: boolean;
  reason: string | null;
};

export const presentRate = (row: rates.RateRow): RateView => ({
  id: row.id,
  pair: row.pair,
  rate: formatDecimalTrimmed(row.rate, RATE_SCALE),
  setBy: row.set_by,
  setAt: row.created_at.toISOString(),
  expiresAt: row.expires_at?.toISOString() ?? null,
  forced: row.forced,
  reason: row.reason,
});

/** How long an override of the market reference stands when the operator gives no `expiresAt`. */
export const DEFAULT_OVERRIDE_MS = 15 * 60_000;

export type SetRateOptions = {
  expiresAt?: string | undefined;
  force?: boolean | undefined;
  reason?: string | undefined;
};

/** The rates an override may take around a reference mid: ± `maxBps` of it, the mid itself exact. */
export function overrideBand(mid: bigint, maxBps: number): { low: bigint; high: bigint } {
  const bps = BigInt(maxBps);
  // the low end rounded up and the high end down: a rate in the band is never further than maxBps away
  return {
    low: (mid * (10_000n - bps) + 9_999n) / 10_000n,
    high: (mid * (10_000n + bps)) / 10_000n,
  };
}

export function createRateService(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  references: AppContext['references'];
}) {
  const { db, clock, config, references } = deps;

  /**
   * The band of each environment that prices from the market reference, read before any database work.
   * None at all: the environments quote from the operator's rates, and a rate set is the price itself.
   * A pair whose reference is not usable has no band: only a forced override (with its reason) is set then.
   */
  async function bands(pair: Pair) {
    const out: {
      environment: Environment;
      maxBps: number;
      reference: bigint | null;
      band: { low: bigint; high: bigint } | null;
      reason: string | null;
    }[] = [];
    for (const environment of ENVIRONMENTS) {
      const reference = references[environment];
      if (!reference) continue;
      const maxBps = config.rates[environment].maxOverrideBps;
      const found = await reference.forPair(pair);
      out.push(
        found.usable
          ? {
              environment,
              maxBps,
              reference: found.rate,
              band: overrideBand(found.rate, maxBps),
              reason: null,
            }
          : { environment, maxBps, reference: null, band: null, reason: found.reason },
      );
    }
    return out;
  }

  async function set(
    actor: Actor,
    pair: Pair,
    rateText: string,
    options: SetRateOptions = {},
  ): Promise<RateView> {
    const rate = parseDecimal(rateText, RATE_SCALE, RATE_INTEGER_DIGITS);
    if (rate <= 0n) throw invalidField('/body/rate', 'must be greater than zero');
    const reason = options.reason?.trim() || null;
    if (options.force && !reason) {
      throw invalidField('/body/reason', 'is required with force: say why the rate is set outside the band');
    }
    const now = clock();
    const checked = await bands(pair);
    const overriding = checked.length > 0;
    if (!overriding && options.expiresAt !== undefined) {
      throw invalidField(
        '/body/expiresAt',
        'applies to overrides of the market reference; a rate set while quotes are priced from the ' +
          "operator's rates stays in force until the next one",
      );
    }
    let expiresAt: Date | null = null;
    if (overriding) {
      expiresAt = options.expiresAt
        ? new Date(options.expiresAt)
        : new Date(now.getTime() + DEFAULT_OVERRIDE_MS);
      if (Number.isNaN(expiresAt.getTime())) throw invalidField('/body/expiresAt', 'is not a date-time');
      if (expiresAt <= now) throw invalidField('/body/expiresAt', 'must be in the future');
    }
    const outside = checked.filter((c) => !c.band || rate < c.band.low || rate > c.band.high);
    if (outside.length > 0 && !options.force) {
      const first = outside[0]!;
      const shown = (value: bigint) => formatDecimalTrimmed(value, RATE_SCALE);
      throw new AppError(
        'rate_out_of_band',
        first.band
          ? `${shown(rate)} is outside the ${pair} band ${shown(first.band.low)}–${shown(first.band.high)} ` +
              `(${first.maxBps} bps around the ${first.environment} reference ${shown(first.reference!)}); ` +
              'set it with force and a reason to override anyway'
          : `${pair} has no usable ${first.environment} reference to bound an override (${first.reason}); ` +
              'set it with force and a reason to override anyway',
        {
          extra: {
            band: outside.map((c) => ({
              environment: c.environment,
              maxBps: c.maxBps,
              reference: c.reference === null ? null : shown(c.reference),
              low: c.band ? shown(c.band.low) : null,
              high: c.band ? shown(c.band.high) : null,
            })),
          },
        },
      );
    }
    const row: rates.RateRow = {
      id: newId(),
      pair,
      rate,
      set_by: actorLabel(actor),
      created_at: now,
      expires_at: expiresAt,
      forced: options.force === true,
      reason,
    };
    await db.transaction(async (tx) => {
      const before = await rates.currentRate(tx, pair);
      await rates.insertRate(tx, row);
      await recordAudit(tx, {
        actor,
        action: overriding ? 'rate.override' : 'rate.set',
        resourceType: 'conversion_rate',
        resourceId: row.id,
        before: before ? { pair, rate: formatDecimalTrimmed(before.rate, RATE_SCALE) } : undefined,
        after: {
          pair,
          rate: formatDecimalTrimmed(rate, RATE_SCALE),
          ...(overriding && {
            expiresAt: expiresAt!.toISOString(),
            forced: row.forced,
            reason,
            references: checked.map((c) => ({
              environment: c.environment,
              reference: c.reference === null ? null : formatDecimalTrimmed(c.reference, RATE_SCALE),
              maxBps: c.maxBps,
              inBand: !outside.includes(c),
            })),
          }),
          ...(!overriding && reason && { reason }),
        },
        at: row.created_at,
      });
    });
    return presentRate(row);
  }

  async function list(): Promise<{ data: RateView[] }> {
    return { data: (await rates.currentRates(db)).map(presentRate) };
  }

  /**
   * What the rates page charts for each pair over the last `RATE_HISTORY_MS`: the rates set (the one
   * already in force when the window opens first, drawn from the window's start), and the quotes given
   * in every environment with the market reference each was priced from.
   */
  async function history(): Promise<RateHistory> {
    const to = clock();
    const from = new Date(to.getTime() - RATE_HISTORY_MS);
    const [set, quotes] = await Promise.all([
      rates.ratesSince(db, from),
      repo.quotesSince(db, from, RATE_HISTORY_QUOTES + 1),
    ]);
    const shown = quotes.slice(quotes.length > RATE_HISTORY_QUOTES ? 1 : 0);
    return {
      from,
      to,
      truncated: quotes.length > RATE_HISTORY_QUOTES,
      pairs: PAIRS.map((pair) => ({
        pair,
        rates: set
          .filter((r) => r.pair === pair)
          .map((r) => ({ rate: r.rate, at: r.created_at < from ? from : r.created_at, setBy: r.set_by })),
        quotes: shown
          .filter((q) => pairOf(q.source_currency, q.target_currency) === pair)
          .map((q) => ({
            id: q.id,
            environment: q.environment,
            rate: q.base_rate,
            at: q.created_at,
            reference:
              q.reference_source && q.reference_rate !== null
                ? { source: q.reference_source, rate: q.reference_rate, at: q.reference_at }
                : null,
          })),
      })),
    };
  }

  return { set, list, history };
}

/**
 * When the rate in force for each pair was set: what `/metrics` and `/readyz` report. An override past its
 * expiry is not in force, so its pair has none.
 */
export async function ratesSetAt(db: Executor, now: Date): Promise<{ pair: string; set_at: Date }[]> {
  return (await rates.ratesInForce(db, now)).map((row) => ({ pair: row.pair, set_at: row.created_at }));
}

/** Whether a pair's market reference can price a quote now, and if not why (a feed's name and age). */
export type ReferenceReadiness = { usable: boolean; reason?: string };

/**
 * Each pair's market reference in every environment that quotes from one, from the readings in hand
 * (never waiting on the node): what `/readyz` on the operator listener reports of the rate sources.
 */
export function referenceReadiness(
  references: AppContext['references'],
): Partial<Record<Environment, Record<string, ReferenceReadiness>>> {
  const out: Partial<Record<Environment, Record<string, ReferenceReadiness>>> = {};
  for (const environment of ENVIRONMENTS) {
    const reference = references[environment];
    if (!reference) continue;
    out[environment] = Object.fromEntries(
      PAIRS.map((pair) => {
        const found = reference.inHand(pair);
        return [pair, found.usable ? { usable: true } : { usable: false, reason: found.reason }];
      }),
    );
  }
  return out;
}

/** The rates page's window, and the most quotes it draws (the newest). */
export const RATE_HISTORY_MS = 24 * 60 * 60 * 1000;
export const RATE_HISTORY_QUOTES = 2000;

/** A pair's rates and quotes over a window; rates are units at `RATE_SCALE`. */
export type PairHistory = {
  pair: Pair;
  rates: { rate: bigint; at: Date; setBy: string }[];
  quotes: {
    id: string;
    environment: Tenant['environment'];
    rate: bigint;
    at: Date;
    reference: { source: repo.ReferenceSource; rate: bigint; at: Date | null } | null;
  }[];
};

export type RateHistory = { from: Date; to: Date; truncated: boolean; pairs: PairHistory[] };

export const TIME_LOCKS = { '30s': 30_000, '1m': 60_000, '5m': 300_000 } as const;
export type TimeLock = keyof typeof TIME_LOCKS;

export type CreateExchangeRateInput = {
  type: repo.ExchangeRateType;
  sourceCurrency: Currency;
  targetCurrency: Currency;
  sourceAmount?: string | undefined;
  targetAmount?: string | undefined;
  timeLock?: TimeLock | undefined;
};

export function presentExchangeRate(row: repo.ExchangeRateRow) {
  return {
    id: row.id,
    type: row.type,
    sourceCurrency: row.source_currency,
    sourceAmount: money(row.source_amount, row.source_currency).amount,
    targetCurrency: row.target_currency,
    targetAmount: money(row.target_amount, row.target_currency).amount,
    rate: formatDecimalTrimmed(
      effectiveRate(row.source_amount, row.source_currency, row.target_amount, row.target_currency),
      RATE_SCALE,
    ),
    baseRate: formatDecimalTrimmed(row.base_rate, RATE_SCALE),
    fees: {
      platform: money(row.platform_fee, row.source_currency),
      partner: money(row.partner_fee, row.source_currency),
    },
    expiresAt: row.expires_at?.toISOString() ?? null,
    reference: {
      source: row.reference_source ?? 'OPERATOR',
      rate: formatDecimalTrimmed(row.reference_rate ?? row.base_rate, RATE_SCALE),
      at: row.reference_at?.toISOString() ?? null,
    },
    createdAt: row.created_at.toISOString(),
  };
}

export type QuoteReference = ExchangeRateView['reference'];

/**
 * The market reference a quote of the tenant was priced from, as the quote shows it (null: no such quote,
 * as for a transaction that used none).
 */
export async function quoteReference(
  db: Executor,
  tenant: Tenant,
  exchangeRateId: string | null | undefined,
): Promise<QuoteReference | null> {
  if (!exchangeRateId) return null;
  const row = await repo.findExchangeRate(db, tenant, exchangeRateId);
  return row ? presentExchangeRate(row).reference : null;
}

/**
 * The pair's market reference where the environment quotes from one (null: the operator's rates), read
 * before any database work: a quote never holds a connection while the node is asked.
 */
export async function marketOf(
  references: AppContext['references'],
  environment: Environment,
  pair: Pair,
): Promise<PairReference | null> {
  return (await references[environment]?.forPair(pair)) ?? null;
}

/**
 * The rate a conversion of the tenant is priced at now, and its reference (reference-price.ts): the
 * market's read first, then the rate in force (an override, or the operator's rate) from the database.
 */
export async function priceRate(
  deps: { db: Executor; clock: Clock; config: Config; references: AppContext['references'] },
  tenant: Tenant,
  pair: Pair,
): Promise<PricedRate> {
  const market = await marketOf(deps.references, tenant.environment, pair);
  const inForce = await rates.rateInForce(deps.db, pair, deps.clock());
  return rateToPrice({
    config: deps.config,
    environment: tenant.environment,
    pair,
    market,
    inForce: inForce
      ? { rate: inForce.rate, setAt: inForce.created_at, expiresAt: inForce.expires_at }
      : null,
  });
}

/**
 * BRL per unit of a conversion's source, where its pair has no BRL side: what the BRL fee terms, the
 * minimum and the limits count the source at, from the references' mids (no spread): a stablecoin at its
 * X/BRL mid; the dollar through the quote's own stablecoin (`dollarInBrl`), as dollars received are, or
 * through USDC when dollars are paid out as dollars.
 * Undefined for a pair with BRL (the pair's own rate is used).
 */
export async function brlValueRate(
  deps: { db: Executor; clock: Clock; config: Config; references: AppContext['references'] },
  tenant: Tenant,
  source: Currency,
  target: Currency,
): Promise<bigint | undefined> {
  if (source === 'BRL' || target === 'BRL') return undefined;
  if (source !== 'USD') return (await priceRate(deps, tenant, pairOf(source, 'BRL'))).mid;
  // dollars paid out as dollars: through USDC, as dollars received into USDC are counted
  const coin = target === 'USD' ? 'USDC' : target;
  const [usd, brl] = await Promise.all([
    priceRate(deps, tenant, pairOf('USD', coin)),
    priceRate(deps, tenant, pairOf(coin, 'BRL')),
  ]);
  return dollarInBrl(usd.mid, brl.mid);
}

/**
 * The rate an on-ramp created without a quote converts at when its deposit trades, in the settlement's
 * database transaction: the same rule as a quote's (reference-price.ts), the market reference taken from
 * the readings in hand so that the transaction never waits on the node. Without one: why, for the
 * failure that holds the deposit for refund.
 */
export async function settlementRate(
  tx: Executor,
  deps: { config: Config; references: AppContext['references'] },
  environment: Environment,
  pair: Pair,
  now: Date,
): Promise<PricedRate | { unavailable: string }> {
  const market = deps.references[environment]?.inHand(pair) ?? null;
  const inForce = await rates.rateInForce(tx, pair, now);
  try {
    return rateToPrice({
      config: deps.config,
      environment,
      pair,
      market,
      inForce: inForce
        ? { rate: inForce.rate, setAt: inForce.created_at, expiresAt: inForce.expires_at }
        : null,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { unavailable: market === null ? `No ${pair} rate is set` : error.message };
  }
}

/**
 * Refuses a conversion without a quote that could not be priced now: where the environment quotes from
 * the market reference, 503 `rates_unavailable` (with `Retry-After`) unless the pair has a usable
 * reference or an override in force. Where it quotes from the operator's rates, a conversion priced later
 * (an on-ramp's, when its deposit trades) is let through as before.
 */
export async function assertPriceable(
  deps: { db: Executor; clock: Clock; config: Config; references: AppContext['references'] },
  tenant: Tenant,
  pair: Pair,
): Promise<void> {
  if (deps.references[tenant.environment]) await priceRate(deps, tenant, pair);
}

export type ExchangeRateView = ReturnType<typeof presentExchangeRate>;

function amountOf(input: CreateExchangeRateInput): { source: bigint } | { target: bigint } {
  const given = [input.sourceAmount, input.targetAmount].filter((value) => value !== undefined);
  if (given.length !== 1) {
    throw new AppError('invalid_request', 'Give exactly one of sourceAmount and targetAmount', {
      errors: [{ pointer: '/body/sourceAmount', message: 'exactly one of sourceAmount and targetAmount' }],
    });
  }
  if (input.sourceAmount !== undefined) {
    const units = parseCurrencyAmount(input.sourceAmount, input.sourceCurrency);
    if (typeof units === 'string') throw invalidField('/body/sourceAmount', units);
    return { source: units };
  }
  const units = parseCurrencyAmount(input.targetAmount!, input.targetCurrency);
  if (typeof units === 'string') throw invalidField('/body/targetAmount', units);
  return { target: units };
}

export type ReferenceView = {
  pair: Pair;
  source: 'CHAINLINK' | 'OPERATOR';
  usable: boolean;
  rate: string | null;
  at: string | null;
  ageSeconds: number | null;
  reason: string | null;
};

/**
 * The reference of each pair (or of one) for partners: the market's where the environment quotes from it
 * (read from the cache, refreshed first when older than its interval) or the operator's override of it
 * while one is in force, else the operator's rate in force.
 */
export async function marketReferences(
  deps: { db: Database; clock: Clock; config: Config; references: AppContext['references'] },
  tenant: Tenant,
  only: Pair | undefined,
) {
  const now = deps.clock();
  const age = (at: Date | null) =>
    at ? Math.max(0, Math.floor((now.getTime() - at.getTime()) / 1000)) : null;
  const pairs = only ? [only] : [...PAIRS];
  const reference = deps.references[tenant.environment];
  const data: ReferenceView[] = [];
  for (const pair of pairs) {
    if (reference) {
      const found = await reference.forPair(pair);
      const override = await rates.overrideInForce(deps.db, pair, now);
      if (override) {
        data.push({
          pair,
          source: 'OPERATOR',
          usable: true,
          rate: formatDecimalTrimmed(override.rate, RATE_SCALE),
          at: override.created_at.toISOString(),
          ageSeconds: age(override.created_at),
          reason: null,
        });
        continue;
      }
      data.push(
        found.usable
          ? {
              pair,
              source: 'CHAINLINK',
              usable: true,
              rate: formatDecimalTrimmed(found.rate, RATE_SCALE),
              at: found.at.toISOString(),
              ageSeconds: age(found.at),
              reason: null,
            }
          : {
              pair,
              source: 'CHAINLINK',
              usable: false,
              rate: null,
              at: found.at?.toISOString() ?? null,
              ageSeconds: age(found.at),
              reason: found.reason,
            },
      );
      continue;
    }
    const set = await rates.rateInForce(deps.db, pair, now);
    const rate =
      set?.rate ?? (tenant.environment === 'sandbox' ? deps.config.moneyOut.sandboxRates[pair] : undefined);
    const at = set?.created_at ?? null;
    data.push({
      pair,
      source: 'OPERATOR',
      usable: rate !== undefined,
      rate: rate === undefined ? null : formatDecimalTrimmed(rate, RATE_SCALE),
      at: at?.toISOString() ?? null,
      ageSeconds: age(at),
      reason: rate === undefined ? `No ${pair} rate is set` : null,
    });
  }
  const ptax = reference?.snapshot().ptax ?? null;
  return {
    data,
    ptax: ptax && {
      date: ptax.date,
      buy: formatDecimalTrimmed(ptax.buy, RATE_SCALE),
      sell: formatDecimalTrimmed(ptax.sell, RATE_SCALE),
    },
  };
}

export function createExchangeRateService(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  references: AppContext['references'];
}) {
  const { db, clock, config } = deps;

  async function create(tenant: Tenant, input: CreateExchangeRateInput): Promise<ExchangeRateView> {
    const pair = pairOf(input.sourceCurrency, input.targetCurrency);
    if (!(PAIRS as readonly string[]).includes(pair)) {
      throw invalidField('/body/targetCurrency', `${pair} is not a pair; pairs: ${PAIRS.join(', ')}`);
    }
    if (input.type === 'FLOATING' && input.timeLock !== undefined) {
      throw invalidField('/body/timeLock', 'applies to LOCKED rates only');
    }
    const amount = amountOf(input);
    const request = {
      kind: kindOf(input.sourceCurrency),
      sourceCurrency: input.sourceCurrency,
      targetCurrency: input.targetCurrency,
      amount,
      pointer: 'source' in amount ? '/body/sourceAmount' : '/body/targetAmount',
    };
    const priced = await priceRate(deps, tenant, pair);
    const pricing = priceAt(
      config,
      request,
      priced.rate,
      await partnerFeeTerms(db, tenant.projectId, request.kind),
      await brlValueRate(deps, tenant, input.sourceCurrency, input.targetCurrency),
    );
    const now = clock();
    const row: repo.ExchangeRateRow = {
      id: newId(),
      project_id: tenant.projectId,
      environment: tenant.environment,
      type: input.type,
      source_currency: input.sourceCurrency,
      target_currency: input.targetCurrency,
      source_amount: pricing.source,
      target_amount: pricing.target,
      base_rate: pricing.baseRate,
      platform_fee: pricing.platformFee,
      partner_fee: pricing.partnerFee,
      limit_amount_brl: pricing.limitAmountBrl,
      expires_at:
        input.type === 'LOCKED' ? new Date(now.getTime() + TIME_LOCKS[input.timeLock ?? '30s']) : null,
      used_at: null,
      created_at: now,
      ...referenceColumns(priced),
    };
    // in a transaction of its own, so that an Idempotency-Key's answer commits with the quote
    return db.transaction(async (tx) => {
      await repo.insertExchangeRate(tx, row);
      return presentExchangeRate(row);
    });
  }

  /**
   * The sandbox's "expire now": a LOCKED quote not yet used expires at once, so that using it answers 409
   * exchange_rate_expired as after its natural expiry (quotes have no events). One already expired is
   * answered as it is.
   */
  async function expire(tenant: Tenant, id: string): Promise<ExchangeRateView> {
    return db.transaction(async (tx) => {
      const row = await repo.lockExchangeRate(tx, tenant, id);
      if (!row) throw notFound('Exchange rate');
      if (row.type !== 'LOCKED') {
        throw new AppError(
          'invalid_state_transition',
          'Only a LOCKED quote expires; a FLOATING one never holds',
        );
      }
      if (row.used_at !== null) {
        throw new AppError('exchange_rate_used', 'The exchange rate was already used by a transaction');
      }
      const now = clock();
      return presentExchangeRate(row.expires_at! > now ? await repo.setExchangeRateExpiry(tx, id, now) : row);
    });
  }

  return { create, expire };
}

/** What a transaction expects of the quote it names: its direction and the fiat its rail moves. */
export type QuoteExpected = { direction: 'ON_RAMP' | 'OFF_RAMP'; fiat: FiatCurrency };

/** A LOCKED quote of the transaction's direction whose fiat side is the fiat of the transaction's rail. */
function assertQuoteFits(quote: repo.ExchangeRateRow, expected: QuoteExpected): void {
  if (quote.type !== 'LOCKED') {
    throw invalidField(
      '/body/exchangeRateId',
      'is a FLOATING rate; only a LOCKED rate settles a transaction',
    );
  }
  const fiat = expected.direction === 'ON_RAMP' ? quote.source_currency : quote.target_currency;
  if (kindOf(quote.source_currency) !== expected.direction || fiat !== expected.fiat) {
    throw invalidField(
      '/body/exchangeRateId',
      `quotes ${quote.source_currency}→${quote.target_currency}, not a pair for this transaction`,
    );
  }
}

/**
 * Takes a LOCKED quote for the transaction being created, in its database transaction: the quote's
 * row stays locked until that transaction ends, so of concurrent requests naming it one wins.
 */
export async function useLockedQuote(
  tx: Executor,
  tenant: Tenant,
  id: string,
  expected: QuoteExpected,
  now: Date,
): Promise<repo.ExchangeRateRow> {
  const quote = await repo.lockExchangeRate(tx, tenant, id);
  if (!quote) throw notFound('Exchange rate');
  assertQuoteFits(quote, expected);
  if (quote.used_at)
    throw new AppError('exchange_rate_used', 'The exchange rate was already used by a transaction');
  if (now >= quote.expires_at!) {
    throw new AppError(
      'exchange_rate_expired',
      `The exchange rate expired at ${quote.expires_at!.toISOString()}`,
    );
  }
  await repo.markExchangeRateUsed(tx, quote.id, now);
  return quote;
}

/**
 * The source amount of a LOCKED quote a creation is about to use, read (and checked as `useLockedQuote`
 * checks it) in a short transaction of its own: what a PSP charge is registered for before the creation.
 */
export async function peekLockedQuoteAmount(
  tx: Executor,
  tenant: Tenant,
  id: string,
  expected: QuoteExpected,
  now: Date,
): Promise<bigint> {
  const quote = await repo.lockExchangeRate(tx, tenant, id);
  if (!quote) throw notFound('Exchange rate');
  assertQuoteFits(quote, expected);
  if (quote.used_at)
    throw new AppError('exchange_rate_used', 'The exchange rate was already used by a transaction');
  if (now >= quote.expires_at!) {
    throw new AppError(
      'exchange_rate_expired',
      `The exchange rate expired at ${quote.expires_at!.toISOString()}`,
    );
  }
  return quote.source_amount;
}

export type { ExchangeRateRow } from './quotes-repo.ts';
export type { ReferenceColumns } from './reference-price.ts';
export { quoteReferenceColumns, rateToPrice, referenceColumns, withSpread } from './reference-price.ts';

/** A typed fact other modules read within their own statements. */
export const currentRateFact: typeof rates.currentRateFact = rates.currentRateFact;

/** What `currentRateFact` reads for a creation at `now` (null: its pair needs no rate). */
export function rateReadAt(pair: Pair | null, now: Date): { pair: Pair; now: Date } | null {
  return rates.rateReadAt(pair, now);
}
