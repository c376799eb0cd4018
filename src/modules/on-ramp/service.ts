import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Clock } from '../../core/clock.ts';
import type { Blockchain } from '../../core/currencies.ts';
import { AppError, invalidField } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { formatAmount, parseAmount } from '../../core/money.ts';
import { currentBeforeCommit } from '../../db/commit-hooks.ts';
import { type AnswersOf, combinedFacts } from '../../db/one-statement.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { PIX_MAX_AMOUNT_CENTS } from '../../lib/pix-brcode.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { type Collection, type Payer, RailUnavailable } from '../../rails/fiat-rail.ts';
import { type BrlRail, brlRailOf, type FiatRails, type PixInstructions } from '../../rails/fiat-rails.ts';
import { approvedForMovements, type CustomerWithVerification, findCustomer } from '../customers/service.ts';
import { grantsFact, limitsFrom } from '../limits/in-force.ts';
import { usageAt, usageFact } from '../limits/usage.ts';
import { partnerFeeFact } from '../partner-fees/service.ts';
import { pairOf } from '../pricing/market.ts';
import { onRampFee } from '../pricing/pricing.ts';
import { assertMinimum, platformFeeTerms } from '../pricing/quote.ts';
import type { ExchangeRateRow } from '../pricing/service.ts';
import {
  assertPriceable,
  peekLockedQuoteAmount,
  type QuoteExpected,
  quoteReferenceColumns,
  useLockedQuote,
} from '../pricing/service.ts';
import { type Approved, type CreationRequest, creationBatches } from '../transactions/creation-batches.ts';
import { assertWithinLimits } from '../transactions/limits.ts';
import { newTransactionRow } from '../transactions/new-row.ts';
import { presentTransaction, type TransactionView } from '../transactions/presenter.ts';
import type * as repo from '../transactions/read-service.ts';
import type { TargetCurrency } from '../transactions/state.ts';

export type CreateOnRampInput = {
  customerId: string;
  currency?: 'BRL' | undefined;
  amount?: string | undefined;
  targetCurrency?: TargetCurrency | undefined;
  blockchain?: Blockchain | undefined;
  exchangeRateId?: string | undefined;
  metadata?: Record<string, string> | undefined;
};

/** A creation as the request asks it, checked before any database work. */
type OnRampRequest = CreationRequest & {
  input: CreateOnRampInput;
  given: bigint | undefined;
  blockchain: Blockchain;
  /** The transaction's id, chosen before any database work (a remote collection derives from it). */
  id: string;
  /** The rail that collects the deposit. */
  rail: BrlRail;
  /** The collection a provider opened before any database work, or null (the rail opens it in `decide`). */
  charge: Collection<PixInstructions> | null;
};

/**
 * What the creations of a batch decide on, one answer per customer in the order given (customers
 * distinct, each locked): the limits granted, the usage of the day and month of the creation, the
 * partner fee.
 */
const ON_RAMP_FACTS = combinedFacts({ grants: grantsFact, usage: usageFact, partnerFee: partnerFeeFact });

type OnRampFacts = AnswersOf<typeof ON_RAMP_FACTS.facts>;

function assertMatchesQuote(quote: ExchangeRateRow, amount: bigint | undefined, target: string | undefined) {
  if (amount !== undefined && amount !== quote.source_amount) {
    throw invalidField(
      '/body/amount',
      `must match the exchange rate's sourceAmount ${formatAmount(quote.source_amount)}`,
    );
  }
  if (target !== undefined && target !== quote.target_currency) {
    throw invalidField(
      '/body/targetCurrency',
      `must match the exchange rate's targetCurrency ${quote.target_currency}`,
    );
  }
}

/** The customer as a collection may name them (`devedor`, when the rail can). */
function payerOf(customer: CustomerWithVerification): Payer {
  return { name: customer.name, country: customer.country, type: customer.type, taxId: customer.tax_id };
}

export type OnRampDeps = {
  db: Database;
  clock: Clock;
  config: Config;
  chains: ChainRegistry;
  pix: FiatRails;
  references: AppContext['references'];
};

/** The quotes an on-ramp over PIX settles at: BRL into a stablecoin. */
const PIX_ON_RAMP: QuoteExpected = { direction: 'ON_RAMP', fiat: 'BRL' };

function validAmount(config: Config, text: string): bigint {
  const amount = parseAmount(text);
  if (amount <= 0n) throw invalidField('/body/amount', 'must be greater than zero');
  if (amount > PIX_MAX_AMOUNT_CENTS) {
    throw invalidField(
      '/body/amount',
      `must be at most ${formatAmount(PIX_MAX_AMOUNT_CENTS)}, what a PIX charge carries`,
    );
  }
  assertMinimum(config, amount, '/body/amount');
  const terms = platformFeeTerms(config, 'ON_RAMP');
  const fee = onRampFee(amount, terms);
  const least = fee > terms.minimum ? fee : terms.minimum;
  if (least >= amount)
    throw invalidField('/body/amount', `must be more than the fee of ${formatAmount(least)}`);
  return amount;
}

/** The rail that collects the environment's deposits; production without a PSP has none (503). */
function railFor(deps: OnRampDeps, tenant: Tenant): BrlRail {
  const rail = brlRailOf(deps.pix, tenant.environment, deps.config.onRamp);
  if (rail) return rail;
  throw new AppError(
    'service_unavailable',
    'On-ramps are not available: no PIX PSP is configured for production (PONTE_PIX_PSP)',
  );
}

/** Without a quote: currency and amount are required. With one: when sent, they must match it. */
function requestedAmount(config: Config, input: CreateOnRampInput): bigint | undefined {
  if (input.exchangeRateId === undefined) {
    const errors = [];
    if (input.currency === undefined) errors.push({ pointer: '/body/currency', message: 'is required' });
    if (input.amount === undefined) errors.push({ pointer: '/body/amount', message: 'is required' });
    if (errors.length > 0) throw new AppError('invalid_request', 'The request body is invalid', { errors });
  }
  return input.amount === undefined ? undefined : validAmount(config, input.amount);
}

/** What an on-ramp's row is made of once decided. */
type OnRampTerms = {
  id: string;
  amount: bigint;
  targetCurrency: TargetCurrency;
  charge: Collection<PixInstructions>;
  quote: ExchangeRateRow | null;
};

/** The on-ramp's row: AWAITING_FUNDS until its deposit arrives, the conversion fixed now by a LOCKED quote. */
function onRampRow(
  config: Config,
  request: OnRampRequest,
  customer: CustomerWithVerification,
  partner: OnRampFacts['partnerFee'],
  terms: OnRampTerms,
  now: Date,
): repo.TransactionRow {
  const { tenant, input, blockchain } = request;
  const { onRamp } = config;
  const { id, amount, charge, quote } = terms;
  return newTransactionRow(
    {
      id,
      customer_id: customer.id,
      project_id: tenant.projectId,
      environment: tenant.environment,
      type: 'ON_RAMP',
      status: 'AWAITING_FUNDS',
      currency: 'BRL',
      amount,
      target_currency: terms.targetCurrency,
      pix_txid: charge.reference,
      br_code: charge.instructions.brCode,
      expires_at: new Date(now.getTime() + onRamp.depositExpiryMs),
      fee_basis_points: onRamp.feeBasisPoints,
      fee_flat: onRamp.feeFlat,
      fee_minimum: config.moneyOut.minimumFee,
      partner_fee_basis_points: partner.basisPoints,
      partner_fee_flat: partner.flat,
      // a LOCKED quote fixes the conversion now; otherwise it is fixed when the deposit trades
      rate: quote?.base_rate ?? null,
      fee: quote ? quote.platform_fee + quote.partner_fee : null,
      net_amount: quote ? quote.source_amount - quote.platform_fee - quote.partner_fee : null,
      target_amount: quote?.target_amount ?? null,
      platform_fee: quote?.platform_fee ?? null,
      partner_fee: quote?.partner_fee ?? null,
      limit_amount_brl: amount,
      exchange_rate_id: quote?.id ?? null,
      ...(quote ? quoteReferenceColumns(quote) : {}),
      metadata: input.metadata && Object.keys(input.metadata).length > 0 ? input.metadata : null,
      blockchain,
    },
    now,
  );
}

/** What a creation decides from the customer (locked), what was read after the lock and the quote. */
async function decideOnRamp(
  deps: OnRampDeps,
  request: OnRampRequest,
  customer: CustomerWithVerification,
  facts: OnRampFacts,
  quote: ExchangeRateRow | null,
  now: Date,
): Promise<{ row: repo.TransactionRow; view: TransactionView }> {
  const { config, chains } = deps;
  const { tenant, input, given, blockchain } = request;
  if (quote) assertMatchesQuote(quote, given, input.targetCurrency);
  const amount = quote ? quote.source_amount : given!;
  // an ON_RAMP quote's target is a stablecoin
  const targetCurrency = quote ? (quote.target_currency as TargetCurrency) : (input.targetCurrency ?? 'USDC');
  if (!chains.get(tenant.environment, blockchain).supports(targetCurrency)) {
    throw invalidField('/body/blockchain', `${targetCurrency} is not available on ${blockchain}`);
  }
  assertWithinLimits(limitsFrom(facts.grants, config.defaultLimits[customer.type]), facts.usage, amount);
  // a collection the rail opens itself is opened here, for the amount decided, under an id of now
  const id = request.charge ? request.id : newId();
  const charge =
    request.charge ??
    (await request.rail.collect({
      transactionId: id,
      amount,
      expiresInSeconds: Math.ceil(config.onRamp.depositExpiryMs / 1000),
      payer: payerOf(customer),
    }));
  const terms = { id, amount, targetCurrency, charge, quote };
  const row = onRampRow(config, request, customer, facts.partnerFee, terms, now);
  return { row, view: presentTransaction(row) };
}

/** Concurrent creations of different customers, in one transaction (creation-batches.ts). */
export function onRampCreations(deps: OnRampDeps) {
  return creationBatches({
    db: deps.db,
    clock: deps.clock,
    movements: 'on-ramps',
    facts: ON_RAMP_FACTS,
    inputs: ({ request, customer }: Approved<OnRampRequest>, now) => ({
      grants: customer.id,
      usage: usageAt(customer.id, now),
      partnerFee: { projectId: request.tenant.projectId, type: 'ON_RAMP' as const },
    }),
    decide: async (tx, request: OnRampRequest, customer, facts, now) => {
      const { tenant, input } = request;
      // a LOCKED quote is used up in its creation's own transaction (the creation runs alone)
      const quote =
        input.exchangeRateId === undefined
          ? null
          : await useLockedQuote(tx, tenant, input.exchangeRateId, PIX_ON_RAMP, now);
      return decideOnRamp(deps, request, customer, facts, quote, now);
    },
    limitAmount: (row) => row.amount,
  });
}

/**
 * A collection that asks a provider (a PSP's charge, `PUT /cob/{txid}`) is opened before any database
 * work and with no connection held: the provider's answer, its instructions, goes into the creation.
 * The customer it names is read without a lock (the creation checks them again under its lock). When
 * the provider does not take it in time the answer is 503 and nothing is created or counted; when the
 * creation is then refused (a limit, a quote), the collection is cancelled.
 */
async function collectAhead(deps: OnRampDeps, request: OnRampRequest): Promise<OnRampRequest> {
  const { db, clock, config } = deps;
  const { tenant, input } = request;
  const customer = approvedForMovements(await findCustomer(db, tenant, input.customerId), 'on-ramps');
  const amount =
    request.given ??
    (await db.transaction((tx) =>
      peekLockedQuoteAmount(tx, tenant, input.exchangeRateId!, PIX_ON_RAMP, clock()),
    ));
  try {
    const charge = await request.rail.collect({
      transactionId: request.id,
      amount,
      expiresInSeconds: Math.ceil(config.onRamp.depositExpiryMs / 1000),
      payer: payerOf(customer),
    });
    return { ...request, charge };
  } catch (error) {
    if (!(error instanceof RailUnavailable)) throw error;
    throw new AppError('service_unavailable', 'The PIX PSP did not register the charge in time; try again');
  }
}

/**
 * Creates an on-ramp (`POST /transactions/onramp`): the deposit's collection opened (at the provider
 * first, when the rail asks one), then decided under the customer's lock in a batch of creations.
 */
export async function createOnRamp(
  deps: OnRampDeps & { creations: ReturnType<typeof onRampCreations> },
  tenant: Tenant,
  input: CreateOnRampInput,
): Promise<TransactionView> {
  let request: OnRampRequest = {
    tenant,
    input,
    given: requestedAmount(deps.config, input),
    blockchain: input.blockchain ?? deps.chains.config.defaultChain,
    id: newId(),
    rail: railFor(deps, tenant),
    charge: null,
    beforeCommit: currentBeforeCommit(),
  };
  const { rail } = request;
  // without a quote the rate is fixed when the deposit trades; where it comes from the market
  // reference, a pair without a usable one is refused now, before a collection is opened
  if (input.exchangeRateId === undefined) {
    await assertPriceable(deps, tenant, pairOf('BRL', input.targetCurrency ?? 'USDC'));
  }
  if (rail.collectsRemotely) request = await collectAhead(deps, request);
  try {
    // a LOCKED quote is used up by its creation's own transaction
    if (input.exchangeRateId !== undefined) return await deps.creations.alone(request);
    return await deps.creations.submit(request);
  } catch (error) {
    if (rail.collectsRemotely && request.charge) {
      // the charge nobody will pay: withdrawn; one that still gets paid is held for refund (UNMATCHED)
      deps.pix.track(rail.cancelCollection(request.charge.reference), { transactionId: request.id });
    }
    throw error;
  }
}

/** The on-ramp service the routes use: its creations batched together. */
export function createOnRampService(deps: OnRampDeps) {
  const creations = onRampCreations(deps);
  return {
    create: (tenant: Tenant, input: CreateOnRampInput) => createOnRamp({ ...deps, creations }, tenant, input),
  };
}
