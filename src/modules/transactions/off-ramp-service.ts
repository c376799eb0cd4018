/**
 * Off-ramps (PRODUCT.md, "Off-ramp"): money out of a customer's USDC, USDT or BRL balance to one of
 * their PIX bank accounts. Everything is decided in one database transaction under the customer's row
 * lock: the customer is APPROVED, the account is theirs, not deleted and its holder APPROVED
 * (PERSONAL_ACCOUNT only to a SELF account), the figures are fixed (a LOCKED quote's, taken once, or
 * the rate in force), the BRL value fits the limits in the pool shared with on-ramps, and the balance
 * is reserved. Settlement then carries the off-ramp on in the background (rails/pix/payout.ts).
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { readAll, writeAll } from '../../db/one-statement.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { type PayoutAccountColumns, payoutAccountPart } from '../bank-accounts/service.ts';
import { lockApprovedCustomer } from '../customers/service.ts';
import { eventPart } from '../events/outbox.ts';
import { pairOf, rateOrSandboxDefault } from '../exchange-rates/market.ts';
import { UNIT_RATE } from '../exchange-rates/pricing.ts';
import { type PricedConversion, priceAt, requireRate } from '../exchange-rates/quote.ts';
import type { ExchangeRateRow } from '../exchange-rates/service.ts';
import { useLockedQuote } from '../exchange-rates/service.ts';
import type { Currency } from '../ledger/accounts.ts';
import { formatCurrencyAmount, parseCurrencyAmount } from '../ledger/amounts.ts';
import { type HoldingsColumns, holdingsFrom, holdingsPart, reservationJournal } from '../ledger/reserve.ts';
import { journalParts } from '../ledger/service.ts';
import { type GrantColumns, grantsPart, limitsFrom } from '../limits/in-force.ts';
import { addUsagePart, type UsageColumns, usageFrom, usagePart } from '../limits/usage.ts';
import { type PartnerFeeColumns, partnerFeeFrom, partnerFeePart } from '../partner-fees/service.ts';
import type { ChainRegistry } from '../rails/chains/registry.ts';
import { productionPayoutsConfigured, submitDuePayouts } from '../rails/pix/payout-submission.ts';
import { currentRatePart, type RateColumns } from '../rates/service.ts';
import { drawFromHoldings } from '../wallets/draw.ts';
import { assertWithinLimits } from './limits.ts';
import type { OffRampPurpose } from './off-ramp-state.ts';
import { presentTransaction, type TransactionView } from './presenter.ts';
import * as repo from './repo.ts';
import { settleNow } from './settlement.ts';

export type CreateOffRampInput = {
  customerId: string;
  bankAccountId: string;
  sourceCurrency?: 'USDC' | 'USDT' | 'BRL' | undefined;
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

export function createOffRampService(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  chains: ChainRegistry;
}) {
  const { db, clock, config, chains } = deps;

  function payoutAccount(input: CreateOffRampInput, customerId: string, facts: PayoutAccountColumns) {
    if (facts.account_id === null || facts.account_customer_id !== customerId) throw notFound('Bank account');
    if (facts.account_holder_status !== 'APPROVED') {
      throw new AppError(
        'bank_account_not_verified',
        `The bank account's holder verification is ${facts.account_holder_status}; payouts need it APPROVED`,
      );
    }
    if (input.purpose === 'PERSONAL_ACCOUNT' && facts.account_holder_relationship !== 'SELF') {
      throw invalidField(
        '/body/purpose',
        'PERSONAL_ACCOUNT pays out only to an account of the customer (SELF)',
      );
    }
    return facts.account_id;
  }

  async function create(tenant: Tenant, input: CreateOffRampInput): Promise<TransactionView> {
    const requested = requestedAmount(input);
    if (tenant.environment === 'production' && !productionPayoutsConfigured(config)) {
      throw new AppError(
        'service_unavailable',
        'Off-ramps are not available: the PIX payout provider is not configured',
      );
    }
    const view = await db.transaction(async (tx) => {
      const customer = await lockApprovedCustomer(tx, tenant, input.customerId, 'off-ramps');
      const now = clock();
      const pair = requested && requested.currency !== 'BRL' ? pairOf(requested.currency, 'BRL') : null;
      // Everything else the creation decides on, in one statement after the lock: it sees every
      // creation and reserve committed before the lock was granted.
      const facts = await readAll<
        PayoutAccountColumns & RateColumns & PartnerFeeColumns & GrantColumns & UsageColumns & HoldingsColumns
      >(tx, [
        payoutAccountPart(tenant, input.bankAccountId),
        currentRatePart(pair),
        partnerFeePart(tenant.projectId, 'OFF_RAMP'),
        grantsPart(customer.id),
        usagePart(customer.id, now),
        holdingsPart(customer.id),
      ]);
      const accountId = payoutAccount(input, customer.id, facts);
      let figures: Figures;
      let quoteId: string | null = null;
      let partner = { basisPoints: 0, flat: 0n };
      if (requested) {
        const baseRate =
          pair === null
            ? UNIT_RATE
            : requireRate(
                pair,
                rateOrSandboxDefault(
                  facts.rate_in_force,
                  tenant.environment,
                  pair,
                  config.moneyOut.sandboxRates,
                ),
              );
        const priced = priceAt(
          config,
          {
            kind: 'OFF_RAMP',
            sourceCurrency: requested.currency,
            targetCurrency: 'BRL',
            amount: { source: requested.amount },
            pointer: '/body/sourceAmount',
          },
          baseRate,
          partnerFeeFrom(facts),
        );
        figures = priced;
        partner = priced.partnerTerms;
      } else {
        const quote = await useLockedQuote(tx, tenant, input.exchangeRateId!, { direction: 'OFF_RAMP' }, now);
        assertMatchesQuote(quote, input);
        figures = figuresOfQuote(quote);
        quoteId = quote.id;
      }
      assertWithinLimits(
        limitsFrom(facts, config.defaultLimits[customer.type]),
        usageFrom(facts),
        figures.limitAmountBrl,
      );
      const row: repo.TransactionRow = {
        id: newId(),
        customer_id: customer.id,
        project_id: tenant.projectId,
        environment: tenant.environment,
        type: 'OFF_RAMP',
        status: 'TRANSFERRING_STABLECOIN',
        currency: figures.sourceCurrency,
        amount: figures.source,
        target_currency: 'BRL',
        rail: 'PIX',
        pix_txid: null,
        br_code: null,
        expires_at: null,
        fee_basis_points: config.moneyOut.offRampFeeBasisPoints,
        fee_flat: config.moneyOut.offRampFeeFlat,
        fee_minimum: config.moneyOut.minimumFee,
        partner_fee_basis_points: partner.basisPoints,
        partner_fee_flat: partner.flat,
        deposit_amount: null,
        deposit_end_to_end_id: null,
        deposited_at: null,
        rate: figures.baseRate,
        fee: figures.fee,
        net_amount: figures.net,
        target_amount: figures.target,
        platform_fee: figures.platformFee,
        partner_fee: figures.partnerFee,
        limit_amount_brl: figures.limitAmountBrl,
        exchange_rate_id: quoteId,
        bank_account_id: accountId,
        purpose: input.purpose,
        memo: input.memo ?? null,
        metadata: input.metadata ?? null,
        end_to_end_id: null,
        failure_reason: null,
        return_reason: null,
        refund_status: null,
        refund_amount: null,
        refund_failure_reason: null,
        refund_updated_at: null,
        blockchain: null,
        chain_send_id: null,
        transaction_hash: null,
        block_explorer_url: null,
        timeline: [{ status: 'TRANSFERRING_STABLECOIN', at: now.toISOString() }],
        created_at: now,
        updated_at: now,
      };
      const currency = figures.sourceCurrency;
      const holdings = holdingsFrom(facts, currency, chains.config.defaultChain);
      const reserve = reservationJournal(
        {
          tenant,
          customerId: customer.id,
          currency,
          amount: figures.source,
          into: 'OFF_RAMP_RESERVE',
          kind: 'OFF_RAMP_RESERVED',
          reference: row.id,
          transactionId: row.id,
          at: now,
        },
        holdings.balance,
        // a stablecoin leaves the customer's wallets by the wallets' rule: the default chain first
        currency === 'BRL'
          ? undefined
          : (amount) => drawFromHoldings(holdings.wallets, currency, amount, chains.config.defaultChain),
      );
      const created = presentTransaction(row);
      // the transaction, its BRL value added to the limit usage, the reserve's journal and the event:
      // one statement
      await writeAll(tx, [
        repo.insertTransactionPart(row),
        addUsagePart(customer.id, figures.limitAmountBrl, now),
        ...journalParts(reserve),
        eventPart({
          tenant,
          type: 'transaction.created',
          resourceType: 'transaction',
          resourceId: row.id,
          data: created,
          at: now,
        }),
      ]);
      return created;
    });
    // The settlement and payout workers carry every off-ramp on (and finish it if this process stops);
    // in the sandbox, where the rail answers at once, this process starts right away so that the
    // simulated payout completes within moments.
    if (tenant.environment === 'sandbox') setImmediate(() => void advanceOffRamp(deps, view.id));
    return view;
  }

  return { create };
}

/** Runs an off-ramp's settlement steps and sends its payout, as far as it goes now. */
export async function advanceOffRamp(
  deps: { db: Database; clock: Clock; config: Config; chains: ChainRegistry },
  id: string,
) {
  try {
    await settleNow(deps, id);
    const row = await repo.findTransactionById(deps.db, id);
    if (row?.end_to_end_id) await submitDuePayouts(deps, 1, row.end_to_end_id);
  } catch {
    // left to the workers
  }
}
