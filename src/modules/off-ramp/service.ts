/**
 * Off-ramps: money out of a customer's USDC, USDT or BRL balance to one of their bank accounts: BRL to
 * a PIX account, USD to a US account over ACH or wire (the account's currency is the payout's). Everything is decided in one database transaction under the customer's row
 * lock: the customer is APPROVED, the account is theirs, not deleted and its holder APPROVED
 * (PERSONAL_ACCOUNT only to a SELF account), the figures are fixed (a LOCKED quote's, taken once, or
 * the rate in force), the BRL value fits the limits in the pool shared with on-ramps, and the balance
 * is reserved. Settlement then carries the off-ramp on in the background (settlement.ts), and its
 * payout is sent (payout-submission.ts) and its result applied (payout.ts).
 */
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Clock } from '../../core/clock.ts';
import { type Currency, isFiat } from '../../core/currencies.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../../core/logger.ts';
import { currentBeforeCommit } from '../../db/commit-hooks.ts';
import { type AnswersOf, combinedFacts } from '../../db/one-statement.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import type { FiatRails } from '../../rails/fiat-rails.ts';
import { type PayoutAccount, payoutAccountFact } from '../bank-accounts/service.ts';
import type { CustomerWithVerification } from '../customers/service.ts';
import { formatCurrencyAmount, parseCurrencyAmount } from '../ledger/amounts.ts';
import { holdingsFact, holdingsFrom, reservationJournal } from '../ledger/reserve.ts';
import { journalsParts, type NewJournal } from '../ledger/service.ts';
import { grantsFact, limitsFrom } from '../limits/in-force.ts';
import { usageAt, usageFact } from '../limits/usage.ts';
import { partnerFeeFact } from '../partner-fees/service.ts';
import { pairOf } from '../pricing/market.ts';
import { UNIT_RATE } from '../pricing/pricing.ts';
import { type PricedConversion, priceAt } from '../pricing/quote.ts';
import type { ExchangeRateRow, ReferenceColumns } from '../pricing/service.ts';
import {
  brlValueRate,
  currentRateFact,
  marketOf,
  quoteReferenceColumns,
  rateReadAt,
  rateToPrice,
  referenceColumns,
  useLockedQuote,
} from '../pricing/service.ts';
import { type Approved, type CreationRequest, creationBatches } from '../transactions/creation-batches.ts';
import { assertWithinLimits } from '../transactions/limits.ts';
import { newTransactionRow } from '../transactions/new-row.ts';
import type { OffRampPurpose } from '../transactions/off-ramp-terms.ts';
import { presentTransaction, type TransactionView } from '../transactions/presenter.ts';
import * as repo from '../transactions/read-service.ts';
import { drawFromHoldings } from '../wallets/draw.ts';
import { payoutTargetOf } from './payout-repo.ts';
import { productionPayoutsConfigured, submitDuePayouts } from './payout-submission.ts';
import { offRampPayoutKey, settleOffRamp } from './settlement.ts';

export type CreateOffRampInput = {
  customerId: string;
  bankAccountId: string;
  sourceCurrency?: 'USDC' | 'USDT' | 'BRL' | 'USD' | undefined;
  sourceAmount?: string | undefined;
  exchangeRateId?: string | undefined;
  purpose: OffRampPurpose;
  memo?: string | undefined;
  metadata?: Record<string, string> | undefined;
};

type Figures = Pick<
  PricedConversion,
  | 'sourceCurrency'
  | 'source'
  | 'platformFee'
  | 'partnerFee'
  | 'fee'
  | 'net'
  | 'baseRate'
  | 'target'
  | 'limitAmountBrl'
>;

function figuresOfQuote(quote: ExchangeRateRow): Figures {
  const fee = quote.platform_fee + quote.partner_fee;
  return {
    sourceCurrency: quote.source_currency,
    source: quote.source_amount,
    platformFee: quote.platform_fee,
    partnerFee: quote.partner_fee,
    fee,
    net: quote.source_amount - fee,
    baseRate: quote.base_rate,
    target: quote.target_amount,
    limitAmountBrl: quote.limit_amount_brl,
  };
}

function assertMatchesQuote(quote: ExchangeRateRow, input: CreateOffRampInput): void {
  if (input.sourceCurrency !== undefined && input.sourceCurrency !== quote.source_currency) {
    throw invalidField('/body/sourceCurrency', `must match the exchange rate's ${quote.source_currency}`);
  }
  if (input.sourceAmount !== undefined) {
    const amount = parseCurrencyAmount(input.sourceAmount, quote.source_currency);
    if (amount !== quote.source_amount) {
      throw invalidField(
        '/body/sourceAmount',
        `must match the exchange rate's ${formatCurrencyAmount(quote.source_amount, quote.source_currency)}`,
      );
    }
  }
}

/** Without a quote the currency and amount are required, and parsed at the currency's scale. */
function requestedAmount(input: CreateOffRampInput): { currency: Currency; amount: bigint } | null {
  if (input.exchangeRateId !== undefined) return null;
  const errors = [];
  if (input.sourceCurrency === undefined)
    errors.push({ pointer: '/body/sourceCurrency', message: 'is required' });
  if (input.sourceAmount === undefined)
    errors.push({ pointer: '/body/sourceAmount', message: 'is required' });
  if (errors.length > 0) throw new AppError('invalid_request', 'The request body is invalid', { errors });
  const amount = parseCurrencyAmount(input.sourceAmount!, input.sourceCurrency!);
  if (typeof amount === 'string') throw invalidField('/body/sourceAmount', amount);
  return { currency: input.sourceCurrency!, amount };
}

/** What the payout pays and by which rail: the bank account's own (immutable) currency and rail. */
export type PayoutTarget = { currency: 'BRL' | 'USD'; rail: 'PIX' | 'ACH' | 'WIRE' };

const PIX_TARGET: PayoutTarget = { currency: 'BRL', rail: 'PIX' };

/** A creation as the request asks it, checked before any database work. */
type OffRampRequest = CreationRequest & {
  input: CreateOffRampInput;
  target: PayoutTarget;
  /** BRL per source unit where the pair has no BRL side (USDC→USD): what limits and fees count at. */
  brlValue: bigint | undefined;
  /** null: the figures are a LOCKED quote's (`input.exchangeRateId`). */
  requested: { currency: Currency; amount: bigint } | null;
  /** The pair's market reference, read before the creation (null: none asked, or the operator's rates). */
  market: Awaited<ReturnType<typeof marketOf>>;
};

type Decided = { row: repo.TransactionRow; view: TransactionView; reserve: NewJournal };

/** The pair whose rate prices a stablecoin payout; none for the payout's own fiat or a LOCKED quote. */
const pairFor = (requested: OffRampRequest['requested'], target: PayoutTarget) =>
  requested && requested.currency !== target.currency ? pairOf(requested.currency, target.currency) : null;

/**
 * What the creations of a batch decide on, one answer per request in the order given (customers
 * distinct, each locked): the payout account, the rate in force, the partner fee, the limits granted,
 * the usage of the day and month of the creation, and the customer's holdings.
 */
const OFF_RAMP_FACTS = combinedFacts({
  account: payoutAccountFact,
  rate: currentRateFact,
  partnerFee: partnerFeeFact,
  grants: grantsFact,
  usage: usageFact,
  holdings: holdingsFact,
});

type OffRampFacts = AnswersOf<typeof OFF_RAMP_FACTS.facts>;

export type OffRampDeps = {
  db: Database;
  clock: Clock;
  log: Logger;
  config: Config;
  chains: ChainRegistry;
  pix: FiatRails;
  references: AppContext['references'];
};

/** The bank account a payout goes to: the customer's, its holder APPROVED, SELF for PERSONAL_ACCOUNT. */
function payoutAccount(
  input: CreateOffRampInput,
  customerId: string,
  account: PayoutAccount,
  target: PayoutTarget,
) {
  // the currency and rail read before the lock are the account's own (an account never changes them)
  if (
    account === null ||
    account.customerId !== customerId ||
    account.currency !== target.currency ||
    account.rail !== target.rail
  ) {
    throw notFound('Bank account');
  }
  if (account.holderStatus !== 'APPROVED') {
    throw new AppError(
      'bank_account_not_verified',
      `The bank account's holder verification is ${account.holderStatus}; payouts need it APPROVED`,
    );
  }
  if (input.purpose === 'PERSONAL_ACCOUNT' && account.holderRelationship !== 'SELF') {
    throw invalidField(
      '/body/purpose',
      'PERSONAL_ACCOUNT pays out only to an account of the customer (SELF)',
    );
  }
  return account.id;
}

/** The figures of a creation: a LOCKED quote's, else the request's priced at the rate read. */
function offRampFigures(
  config: Config,
  request: OffRampRequest,
  facts: OffRampFacts,
  quote: ExchangeRateRow | null,
): {
  figures: Figures;
  partner: { basisPoints: number; flat: bigint };
  reference: Partial<ReferenceColumns>;
} {
  if (quote !== null) {
    assertMatchesQuote(quote, request.input);
    const figures = figuresOfQuote(quote);
    return { figures, partner: { basisPoints: 0, flat: 0n }, reference: quoteReferenceColumns(quote) };
  }
  const { currency, amount } = request.requested!;
  const pair = pairFor(request.requested, request.target);
  const rate =
    pair === null
      ? null
      : rateToPrice({
          config,
          environment: request.tenant.environment,
          pair,
          market: request.market,
          inForce: facts.rate,
        });
  const baseRate = rate?.rate ?? UNIT_RATE;
  const priced = priceAt(
    config,
    {
      kind: 'OFF_RAMP',
      sourceCurrency: currency,
      targetCurrency: request.target.currency,
      amount: { source: amount },
      pointer: '/body/sourceAmount',
    },
    baseRate,
    facts.partnerFee,
    ...(request.brlValue === undefined ? [] : [request.brlValue]),
  );
  return { figures: priced, partner: priced.partnerTerms, reference: rate ? referenceColumns(rate) : {} };
}

/** The off-ramp's row: TRANSFERRING_STABLECOIN, its figures fixed, to the bank account decided. */
function offRampRow(
  config: Config,
  request: OffRampRequest,
  customerId: string,
  decided: { accountId: string; quote: ExchangeRateRow | null } & ReturnType<typeof offRampFigures>,
  now: Date,
): repo.TransactionRow {
  const { tenant, input } = request;
  const { figures, partner, quote } = decided;
  return newTransactionRow(
    {
      id: newId(),
      customer_id: customerId,
      project_id: tenant.projectId,
      environment: tenant.environment,
      type: 'OFF_RAMP',
      status: 'TRANSFERRING_STABLECOIN',
      currency: figures.sourceCurrency,
      amount: figures.source,
      target_currency: request.target.currency,
      rail: request.target.rail,
      fee_basis_points: config.moneyOut.offRampFeeBasisPoints,
      fee_flat: config.moneyOut.offRampFeeFlat,
      fee_minimum: config.moneyOut.minimumFee,
      partner_fee_basis_points: partner.basisPoints,
      partner_fee_flat: partner.flat,
      rate: figures.baseRate,
      fee: figures.fee,
      net_amount: figures.net,
      target_amount: figures.target,
      platform_fee: figures.platformFee,
      partner_fee: figures.partnerFee,
      limit_amount_brl: figures.limitAmountBrl,
      exchange_rate_id: quote?.id ?? null,
      ...decided.reference,
      bank_account_id: decided.accountId,
      purpose: input.purpose,
      memo: input.memo ?? null,
      metadata: input.metadata ?? null,
    },
    now,
  );
}

/** The reserve of the off-ramp's source amount, out of the customer's balance (their wallets, by rule). */
function offRampReserve(
  chains: ChainRegistry,
  tenant: Tenant,
  row: repo.TransactionRow,
  holdingsFound: OffRampFacts['holdings'],
  now: Date,
): NewJournal {
  const currency = row.currency as Currency;
  const holdings = holdingsFrom(holdingsFound, currency, chains.config.defaultChain);
  return reservationJournal(
    {
      tenant,
      customerId: row.customer_id,
      currency,
      amount: row.amount,
      into: 'OFF_RAMP_RESERVE',
      kind: 'OFF_RAMP_RESERVED',
      reference: row.id,
      transactionId: row.id,
      at: now,
    },
    holdings.balance,
    // a stablecoin leaves the customer's wallets by the wallets' rule: the default chain first
    isFiat(currency)
      ? undefined
      : (amount) => drawFromHoldings(holdings.wallets, currency, amount, chains.config.defaultChain),
  );
}

/**
 * What a creation decides from the customer (locked), what was read after the lock and the quote (a
 * LOCKED quote's figures, else the request's priced at the rate read): the transaction, its view, the
 * reserve's journal and its BRL value for the limits.
 */
function decideOffRamp(
  deps: OffRampDeps,
  request: OffRampRequest,
  customer: CustomerWithVerification,
  facts: OffRampFacts,
  quote: ExchangeRateRow | null,
  now: Date,
): Decided {
  const { config } = deps;
  const accountId = payoutAccount(request.input, customer.id, facts.account, request.target);
  const priced = offRampFigures(config, request, facts, quote);
  assertWithinLimits(
    limitsFrom(facts.grants, config.defaultLimits[customer.type]),
    facts.usage,
    priced.figures.limitAmountBrl,
  );
  const row = offRampRow(config, request, customer.id, { ...priced, accountId, quote }, now);
  const reserve = offRampReserve(deps.chains, request.tenant, row, facts.holdings, now);
  return { row, view: presentTransaction(row), reserve };
}

/** Concurrent creations of different customers, in one transaction (creation-batches.ts). */
export function offRampCreations(deps: OffRampDeps) {
  return creationBatches({
    db: deps.db,
    clock: deps.clock,
    movements: 'off-ramps',
    facts: OFF_RAMP_FACTS,
    inputs: ({ request, customer }: Approved<OffRampRequest>, now) => ({
      account: { tenant: request.tenant, id: request.input.bankAccountId },
      rate: rateReadAt(pairFor(request.requested, request.target), now),
      partnerFee: { projectId: request.tenant.projectId, type: 'OFF_RAMP' as const },
      grants: customer.id,
      usage: usageAt(customer.id, now),
      holdings: customer.id,
    }),
    decide: async (tx, request: OffRampRequest, customer, facts, now) => {
      let quote: ExchangeRateRow | null = null;
      if (request.requested === null) {
        // an unknown account is refused before a quote is looked at; a LOCKED quote is used up in its
        // creation's own transaction (the creation runs alone)
        payoutAccount(request.input, customer.id, facts.account, request.target);
        quote = await useLockedQuote(
          tx,
          request.tenant,
          request.input.exchangeRateId!,
          { direction: 'OFF_RAMP', fiat: request.target.currency },
          now,
        );
      }
      return decideOffRamp(deps, request, customer, facts, quote, now);
    },
    limitAmount: (row) => row.limit_amount_brl,
    // the reserves' journals, in the creations' statement
    alsoWrites: (accepted) => journalsParts(accepted.map(({ reserve }) => reserve)),
  });
}

/**
 * Creates an off-ramp (`POST /transactions/offramp`): decided under the customer's lock in a batch of
 * creations, its source amount reserved; settlement and the payout workers carry it on.
 */
export async function createOffRamp(
  deps: OffRampDeps & { creations: ReturnType<typeof offRampCreations> },
  tenant: Tenant,
  input: CreateOffRampInput,
): Promise<TransactionView> {
  const requested = requestedAmount(input);
  // an unknown account is answered 404 by the creation itself, under the customer's lock
  const found = await payoutTargetOf(deps.db, tenant, input.bankAccountId);
  const target = found ?? PIX_TARGET;
  if (found) assertPaysFrom(target, requested);
  if (tenant.environment === 'production' && !productionPayoutsConfigured(deps.config, target.currency)) {
    throw new AppError(
      'service_unavailable',
      target.currency === 'USD'
        ? 'USD off-ramps are not available: the US bank is not configured'
        : 'Off-ramps are not available: the PIX payout provider is not configured',
    );
  }
  // the market reference is read before any database work: no connection waits on the node
  const pair = pairFor(requested, target);
  const market = pair === null ? null : await marketOf(deps.references, tenant.environment, pair);
  const brlValue =
    requested === null ? undefined : await brlValueRate(deps, tenant, requested.currency, target.currency);
  const request: OffRampRequest = {
    tenant,
    input,
    target,
    brlValue,
    requested,
    market,
    beforeCommit: currentBeforeCommit(),
  };
  // a LOCKED quote is used up by its creation's own transaction
  const view =
    requested === null ? await deps.creations.alone(request) : await deps.creations.submit(request);
  // The settlement and payout workers carry every off-ramp on (and finish it if this process stops);
  // in the sandbox, where the rail answers at once, this process starts right away so that the
  // simulated payout completes within moments.
  if (tenant.environment === 'sandbox') setImmediate(() => void advanceOffRamp(deps, view.id));
  return view;
}

/** A USD account is paid from a stablecoin or USD; BRL is paid out over PIX only. */
function assertPaysFrom(target: PayoutTarget, requested: OffRampRequest['requested']): void {
  if (requested !== null && isFiat(requested.currency) && requested.currency !== target.currency) {
    throw invalidField(
      '/body/sourceCurrency',
      `the bank account pays ${target.currency} over ${target.rail}: pay out from USDC, USDT or ${target.currency}`,
    );
  }
}

/** The off-ramp service the routes use: its creations batched together. */
export function createOffRampService(deps: OffRampDeps) {
  const creations = offRampCreations(deps);
  return {
    create: (tenant: Tenant, input: CreateOffRampInput) =>
      createOffRamp({ ...deps, creations }, tenant, input),
  };
}

/** Runs an off-ramp's settlement steps and sends its payout, as far as it goes now. */
export async function advanceOffRamp(deps: OffRampDeps, id: string) {
  try {
    await settleOffRamp(deps, id);
    const row = await repo.findTransactionById(deps.db, id);
    if (row?.status === 'TRANSFERRING_FIAT')
      await submitDuePayouts(deps, 1, offRampPayoutKey(deps.config, row));
  } catch (err) {
    // left to the workers
    deps.log.error({ err, transactionId: id }, 'off-ramp not advanced; the workers carry it on');
  }
}
