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
import { buildPixBrCode, PIX_MAX_AMOUNT_CENTS, SANDBOX_PIX_KEY } from '../../lib/pix-brcode.ts';
import { randomBase62 } from '../../lib/secrets.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { type ChargeRequest, derivedPixId, type PixRail, RailUnavailable } from '../../rails/pix/rail.ts';
import type { PixRails } from '../../rails/pix/registry.ts';
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

const TXID_LENGTH = 25;

/** A creation as the request asks it, checked before any database work. */
type OnRampRequest = CreationRequest & {
  input: CreateOnRampInput;
  given: bigint | undefined;
  blockchain: Blockchain;
  pixKey: string;
  /** The charge the PSP registered before any database work (a PSP rail), or null (a local BR Code). */
  charge: { id: string; txid: string; brCode: string } | null;
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

export function createOnRampService(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  chains: ChainRegistry;
  pix?: PixRails;
  references: AppContext['references'];
}) {
  const { db, clock, config, chains } = deps;
  const onRamp = config.onRamp;

  function validAmount(text: string): bigint {
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

  function pixKeyFor(tenant: Tenant): string {
    const psp = deps.pix?.config(tenant.environment);
    if (psp) return psp.key;
    if (tenant.environment === 'sandbox') return onRamp.pixKey ?? SANDBOX_PIX_KEY;
    throw new AppError(
      'service_unavailable',
      'On-ramps are not available: no PIX PSP is configured for production (PONTE_PIX_PSP)',
    );
  }

  /** Without a quote: currency and amount are required. With one: when sent, they must match it. */
  function requested(input: CreateOnRampInput): bigint | undefined {
    if (input.exchangeRateId === undefined) {
      const errors = [];
      if (input.currency === undefined) errors.push({ pointer: '/body/currency', message: 'is required' });
      if (input.amount === undefined) errors.push({ pointer: '/body/amount', message: 'is required' });
      if (errors.length > 0) throw new AppError('invalid_request', 'The request body is invalid', { errors });
    }
    return input.amount === undefined ? undefined : validAmount(input.amount);
  }

  /** What a creation decides from the customer (locked), what was read after the lock and the quote. */
  function decide(
    request: OnRampRequest,
    customer: CustomerWithVerification,
    facts: OnRampFacts,
    quote: ExchangeRateRow | null,
    now: Date,
  ): { row: repo.TransactionRow; view: TransactionView } {
    const { tenant, input, given, blockchain, pixKey } = request;
    const partner = facts.partnerFee;
    if (quote) assertMatchesQuote(quote, given, input.targetCurrency);
    const amount = quote ? quote.source_amount : given!;
    // an ON_RAMP quote's target is a stablecoin
    const targetCurrency = quote
      ? (quote.target_currency as TargetCurrency)
      : (input.targetCurrency ?? 'USDC');
    if (!chains.get(tenant.environment, blockchain).supports(targetCurrency)) {
      throw invalidField('/body/blockchain', `${targetCurrency} is not available on ${blockchain}`);
    }
    assertWithinLimits(limitsFrom(facts.grants, config.defaultLimits[customer.type]), facts.usage, amount);
    const charge = request.charge;
    const txid = charge?.txid ?? randomBase62(TXID_LENGTH);
    const row = newTransactionRow(
      {
        id: charge?.id ?? newId(),
        customer_id: customer.id,
        project_id: tenant.projectId,
        environment: tenant.environment,
        type: 'ON_RAMP',
        status: 'AWAITING_FUNDS',
        currency: 'BRL',
        amount,
        target_currency: targetCurrency,
        pix_txid: txid,
        br_code:
          charge?.brCode ??
          buildPixBrCode({
            pixKey,
            merchantName: onRamp.merchantName,
            merchantCity: onRamp.merchantCity,
            amount,
            txid,
          }),
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
    return { row, view: presentTransaction(row) };
  }

  // concurrent creations of different customers, in one transaction (creation-batches.ts)
  const creations = creationBatches({
    db,
    clock,
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
          : await useLockedQuote(tx, tenant, input.exchangeRateId, { direction: 'ON_RAMP' }, now);
      return decide(request, customer, facts, quote, now);
    },
    limitAmount: (row) => row.amount,
  });

  /**
   * The customer a charge is addressed to (`devedor`): name and CPF/CNPJ when Brazilian. Read without a
   * lock, before the charge is registered: the creation checks the customer again under its lock.
   */
  async function payerOf(tenant: Tenant, customerId: string): Promise<ChargeRequest['payer']> {
    const customer = approvedForMovements(await findCustomer(db, tenant, customerId), 'on-ramps');
    if (customer.country !== 'BRA' && customer.country !== 'BR') return null;
    const taxId = customer.tax_id.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
    const name = customer.name.trim();
    if (customer.type === 'INDIVIDUAL' && /^\d{11}$/.test(taxId)) return { name, cpf: taxId };
    if (customer.type === 'BUSINESS' && /^[0-9A-Z]{14}$/.test(taxId)) return { name, cnpj: taxId };
    return null;
  }

  /**
   * With a PSP rail, the charge is registered (`PUT /cob/{txid}`) before any database work and with no
   * connection held: the PSP's answer, its BR Code, goes into the creation. When the PSP does not take
   * it in time the answer is 503 and nothing is created or counted; when the creation is then refused
   * (a limit, a quote), the charge is withdrawn.
   */
  async function registerCharge(rail: PixRail, request: OnRampRequest): Promise<OnRampRequest> {
    const { tenant, input } = request;
    const payer = await payerOf(tenant, input.customerId);
    const amount =
      request.given ??
      (await db.transaction((tx) => peekLockedQuoteAmount(tx, tenant, input.exchangeRateId!, clock())));
    const id = newId();
    const charge: ChargeRequest = {
      txid: derivedPixId(id),
      amount,
      expiresInSeconds: Math.ceil(onRamp.depositExpiryMs / 1000),
      payer,
    };
    try {
      const { brCode } = await rail.registerCharge(charge);
      return { ...request, charge: { id, txid: charge.txid, brCode } };
    } catch (error) {
      if (!(error instanceof RailUnavailable)) throw error;
      throw new AppError('service_unavailable', 'The PIX PSP did not register the charge in time; try again');
    }
  }

  async function create(tenant: Tenant, input: CreateOnRampInput): Promise<TransactionView> {
    let request: OnRampRequest = {
      tenant,
      input,
      given: requested(input),
      blockchain: input.blockchain ?? chains.config.defaultChain,
      pixKey: pixKeyFor(tenant),
      charge: null,
      beforeCommit: currentBeforeCommit(),
    };
    // without a quote the rate is fixed when the deposit trades; where it comes from the market
    // reference, a pair without a usable one is refused now, before a charge is registered
    if (input.exchangeRateId === undefined) {
      await assertPriceable(deps, tenant, pairOf('BRL', input.targetCurrency ?? 'USDC'));
    }
    const rail = deps.pix?.psp(tenant.environment) ?? null;
    if (rail) request = await registerCharge(rail, request);
    try {
      // a LOCKED quote is used up by its creation's own transaction
      if (input.exchangeRateId !== undefined) return await creations.alone(request);
      return await creations.submit(request);
    } catch (error) {
      if (rail && request.charge) {
        const txid = request.charge.txid;
        // the charge nobody will pay: withdrawn; one that still gets paid is held for refund (UNMATCHED)
        deps.pix!.track(rail.withdrawCharge(txid), { transactionId: request.charge.id });
      }
      throw error;
    }
  }

  return { create };
}
