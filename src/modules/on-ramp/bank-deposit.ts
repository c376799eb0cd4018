/**
 * Dollars received: an ACH credit or a wire to a customer's account number, as the US bank reports it
 * (Increase's webhook or sweep, or the sandbox's simulated deposit), becomes an on-ramp in USD that
 * converts to the account's destination stablecoin like a PIX on-ramp. One entry point for every way a
 * transfer is learnt of; the bank's id of the transfer applies it once, under the account's row lock.
 *
 * It is priced when it arrives (the rate in force for USD→stablecoin, the platform's and the partner's
 * on-ramp fees), and counted against the customer's limits at its BRL value (USD/stablecoin ×
 * stablecoin/BRL, the references' mids). What Ponte cannot take is RETURNED, with why, and nothing is
 * booked: no account has the number, the account is CLOSED, the customer is not APPROVED, no rate, an
 * amount under the minimum or its fee, over a limit. A customer on compliance hold has the dollars
 * booked as owed and held uncredited (HELD) until the case is decided (settlement.ts).
 */
import type { FiatCurrency } from '../../core/currencies.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { formatAmount } from '../../core/money.ts';
import { writeAll, writing } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import { type AccountRow, lockDepositAccount } from '../accounts/service.ts';
import { type CustomerWithVerification, lockCustomer } from '../customers/service.ts';
import { recordEvent } from '../events/outbox.ts';
import { depositReceived } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import { limitsInForce } from '../limits/in-force.ts';
import { addUsageFact, readLimitUsage, usageAdded } from '../limits/usage.ts';
import type { BankDepositResult, InboundBankTransfer } from '../offers.ts';
import { partnerFeeTerms } from '../partner-fees/service.ts';
import { pairOf } from '../pricing/market.ts';
import {
  dollarInBrl,
  type FeeTerms,
  type Pricing,
  PricingError,
  priceFromSource,
} from '../pricing/pricing.ts';
import { partnerTerms, platformFeeTerms } from '../pricing/quote.ts';
import { referenceColumns, settlementRate } from '../pricing/service.ts';
import { heldSubjects } from '../screening/service.ts';
import { createdEvent } from '../transactions/creation-batches.ts';
import type { SettlementDeps } from '../transactions/in-flight.ts';
import { assertWithinLimits } from '../transactions/limits.ts';
import { newTransactionRow } from '../transactions/new-row.ts';
import { presentTransaction } from '../transactions/presenter.ts';
import { insertTransactionsFact, type TransactionRow } from '../transactions/read-service.ts';
import {
  findInboundTransfer,
  type InboundTransferRow,
  insertInboundTransfer,
  markReturned,
  unreturnedTransfers,
} from './bank-deposit-repo.ts';
import { type StepDeps, settleOnRamp } from './settlement.ts';

export type { BankDepositResult, InboundBankTransfer } from '../offers.ts';

const NO_ACCOUNT = 'No account has this account number';

type PricedRate = Exclude<Awaited<ReturnType<typeof settlementRate>>, { unavailable: string }>;

type Decision =
  | { returned: string }
  | {
      pricing: Pricing;
      priced: PricedRate;
      partner: FeeTerms;
      customer: CustomerWithVerification;
      held: boolean;
    };

const FIAT: FiatCurrency = 'USD';

/** Whether and at what price the account's customer takes the transfer, read under the locks. */
async function decide(
  tx: Executor,
  deps: StepDeps,
  account: AccountRow,
  amount: bigint,
  now: Date,
): Promise<Decision> {
  const tenant: Tenant = { projectId: account.project_id, environment: account.environment };
  if (account.status !== 'ACTIVE') return { returned: 'The account is closed' };
  const customer = await lockCustomer(tx, tenant, account.customer_id);
  if (customer?.verification_status !== 'APPROVED') {
    return { returned: `The customer's verification is ${customer?.verification_status ?? 'missing'}` };
  }
  const coin = account.destination_currency;
  const priced = await settlementRate(tx, deps, tenant.environment, pairOf(FIAT, coin), now);
  if ('unavailable' in priced) return { returned: priced.unavailable };
  const coinToBrl = await settlementRate(tx, deps, tenant.environment, pairOf(coin, 'BRL'), now);
  if ('unavailable' in coinToBrl) return { returned: coinToBrl.unavailable };
  const rateToBrl = dollarInBrl(priced.mid, coinToBrl.mid);
  const { config } = deps;
  const partner = partnerTerms(await partnerFeeTerms(tx, tenant.projectId, 'ON_RAMP'));
  let pricing: Pricing;
  try {
    pricing = priceFromSource(
      {
        sourceCurrency: FIAT,
        targetCurrency: coin,
        baseRate: priced.rate,
        rateToBrl,
        platform: platformFeeTerms(config, 'ON_RAMP'),
        partner,
      },
      amount,
    );
  } catch (error) {
    if (error instanceof PricingError)
      return { returned: `The amount cannot be converted: ${error.message}` };
    throw error;
  }
  if (pricing.limitAmountBrl < config.moneyOut.minimumAmount) {
    return { returned: `The amount is worth less than ${formatAmount(config.moneyOut.minimumAmount)} BRL` };
  }
  const limits = await limitsInForce(tx, customer.id, config.defaultLimits[customer.type]);
  try {
    assertWithinLimits(limits, await readLimitUsage(tx, customer.id, now), pricing.limitAmountBrl);
  } catch (error) {
    if (error instanceof AppError) return { returned: error.message };
    throw error;
  }
  const held = (await heldSubjects(tx, [customer.id])).length > 0;
  return { pricing, priced, partner, customer, held };
}

/** The on-ramp a taken transfer becomes, at TRANSFERRING_FIAT with its figures fixed. */
function bankOnRampRow(
  account: AccountRow,
  transfer: InboundBankTransfer,
  taken: Extract<Decision, { pricing: Pricing }>,
  config: StepDeps['config'],
  now: Date,
): TransactionRow {
  const { pricing } = taken;
  const platform = platformFeeTerms(config, 'ON_RAMP');
  return newTransactionRow(
    {
      id: newId(),
      customer_id: account.customer_id,
      project_id: account.project_id,
      environment: account.environment,
      type: 'ON_RAMP',
      status: 'TRANSFERRING_FIAT',
      currency: FIAT,
      amount: transfer.amount,
      target_currency: account.destination_currency,
      rail: transfer.rail,
      customer_account_id: account.id,
      blockchain: account.blockchain as TransactionRow['blockchain'],
      fee_basis_points: platform.basisPoints,
      fee_flat: platform.flat,
      fee_minimum: platform.minimum,
      partner_fee_basis_points: taken.partner.basisPoints,
      partner_fee_flat: taken.partner.flat,
      limit_amount_brl: pricing.limitAmountBrl,
      deposit_amount: transfer.amount,
      deposited_at: transfer.at,
      rate: pricing.baseRate,
      fee: pricing.fee,
      net_amount: pricing.net,
      target_amount: pricing.target,
      platform_fee: pricing.platformFee,
      partner_fee: pricing.partnerFee,
      ...referenceColumns(taken.priced),
    },
    now,
  );
}

/** Receives one reported inbound transfer in the caller's transaction. */
export async function receiveBankTransfer(
  tx: Executor,
  deps: StepDeps,
  environment: Environment,
  transfer: InboundBankTransfer,
  now: Date,
): Promise<BankDepositResult> {
  const found = await lockDepositAccount(tx, transfer.bank, transfer.accountNumberId);
  const account = found?.environment === environment ? found : undefined;
  if (await findInboundTransfer(tx, transfer.bank, transfer.bankTransferId)) {
    return { outcome: 'DUPLICATE', transactionId: null, returnReason: null };
  }
  const decision: Decision = account
    ? await decide(tx, deps, account, transfer.amount, now)
    : { returned: NO_ACCOUNT };
  const record = {
    bank: transfer.bank,
    bank_transfer_id: transfer.bankTransferId,
    environment,
    rail: transfer.rail,
    account_id: account?.id ?? null,
    amount: transfer.amount,
    returned_at: null,
    originator_name: transfer.originatorName,
    payload: transfer.payload,
    received_at: now,
  };
  if ('returned' in decision || !account) {
    const reason = 'returned' in decision ? decision.returned : NO_ACCOUNT;
    await insertInboundTransfer(tx, {
      ...record,
      transaction_id: null,
      outcome: 'RETURNED',
      return_reason: reason,
    });
    return { outcome: 'RETURNED', transactionId: null, returnReason: reason };
  }
  const row = bankOnRampRow(account, transfer, decision, deps.config, now);
  await writeAll(tx, [
    writing(insertTransactionsFact, [row]),
    writing(addUsageFact, [usageAdded(row.customer_id, row.limit_amount_brl, now)]),
  ]);
  await recordEvent(tx, createdEvent(row, presentTransaction(row)));
  await postJournal(tx, {
    tenant: { projectId: row.project_id, environment: row.environment },
    kind: 'DEPOSIT_RECEIVED',
    reference: transfer.bankTransferId,
    transactionId: row.id,
    entries: depositReceived(row.customer_id, transfer.amount, FIAT),
    at: now,
  });
  const outcome = decision.held ? 'HELD' : 'APPLIED';
  await insertInboundTransfer(tx, { ...record, transaction_id: row.id, outcome, return_reason: null });
  return { outcome, transactionId: row.id, returnReason: null };
}

/**
 * An inbound transfer applied exactly once, in a transaction of its own, then carried on by settlement
 * (a held one stays where it is until its case is decided).
 */
export async function applyBankTransfer(
  deps: SettlementDeps & StepDeps,
  environment: Environment,
  transfer: InboundBankTransfer,
): Promise<BankDepositResult> {
  const result = await deps.db.transaction((tx) =>
    receiveBankTransfer(tx, deps, environment, transfer, deps.clock()),
  );
  if (result.outcome === 'APPLIED' && result.transactionId) await settleOnRamp(deps, result.transactionId);
  return result;
}

/** Transfers Ponte could not take whose return a bank has not yet accepted, oldest first. */
export function transfersToReturn(
  db: Executor,
  bank: InboundBankTransfer['bank'],
  environment: Environment,
  limit: number,
): Promise<InboundTransferRow[]> {
  return unreturnedTransfers(db, bank, environment, limit);
}

/** Records that the bank accepted the return (or reversal) of a transfer Ponte could not take. */
export function recordReturnedAtBank(
  db: Executor,
  bank: InboundBankTransfer['bank'],
  bankTransferId: string,
  at: Date,
): Promise<void> {
  return markReturned(db, bank, bankTransferId, at);
}
