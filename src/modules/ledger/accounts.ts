/**
 * The chart of accounts. Entries are signed: a debit is positive, a
 * credit negative, and every journal sums to zero in each currency. Customer accounts are liabilities
 * (credit-normal): what the platform owes the customer is the negated sum of their entries.
 */
import { type Blockchain, type Currency, isFiat } from '../../core/currencies.ts';

export type Account =
  /** BRL that arrived in the platform's PIX account. */
  | 'PIX_SETTLEMENT'
  /** USD that arrived in the platform's account at the US bank (ACH credits and wires). */
  | 'BANK_SETTLEMENT'
  /** Fiat (BRL, USD) the platform holds for a customer: deposits not yet converted, or held for refund. */
  | 'CUSTOMER_FIAT'
  /** Fees the platform earned. */
  | 'FEE_REVENUE'
  /** Fees the partner (the journal's project) earned on its own terms. */
  | 'PARTNER_FEE_REVENUE'
  /** A customer's balance reserved for an off-ramp until it is converted or released. */
  | 'OFF_RAMP_RESERVE'
  /** BRL on its way out over PIX: an off-ramp's payout or a refund, until the rail confirms it. */
  | 'PAYOUT_IN_TRANSIT'
  /** The platform's conversion desk: takes BRL, delivers stablecoin. */
  | 'CONVERSION_DESK'
  /** Stablecoin bought for a customer and on its way to their wallet. */
  | 'STABLECOIN_IN_TRANSIT'
  /** Stablecoin a customer holds, per blockchain (entries name their chain). */
  | 'CUSTOMER_WALLET'
  /** Stablecoin the platform controls on chain (its treasury and its customers' custodial addresses). */
  | 'CHAIN_HOLDINGS'
  /** Stablecoin a customer sent to an external address, until the chain confirms it or it fails. */
  | 'CHAIN_OUTBOUND';

export type JournalKind =
  | 'DEPOSIT_RECEIVED'
  | 'FEE'
  | 'CONVERSION'
  | 'STABLECOIN_CREDITED'
  | 'WALLET_TRANSFER'
  | 'CHAIN_SEND'
  | 'CHAIN_SEND_SETTLED'
  | 'CHAIN_SEND_REVERSED'
  | 'CHAIN_DEPOSIT'
  | 'CHAIN_DEPOSIT_REVERSED'
  | 'OFF_RAMP_RESERVED'
  | 'PAYOUT_SENT'
  | 'OFF_RAMP_RELEASED'
  | 'PAYOUT_RETURNED'
  | 'REFUND_RESERVED'
  | 'REFUND_RELEASED';

/** The customer account that holds a currency: fiat in CUSTOMER_FIAT, stablecoins in CUSTOMER_WALLET. */
export const customerAccountFor = (currency: Currency): Account =>
  isFiat(currency) ? 'CUSTOMER_FIAT' : 'CUSTOMER_WALLET';

export type Entry = {
  account: Account;
  customerId: string | null;
  currency: Currency;
  /** Units at the currency's scale: positive debits, negative credits, never zero. */
  amount: bigint;
  /** The chain of a CUSTOMER_WALLET entry. */
  blockchain?: Blockchain | undefined;
};

/** Whether the entries sum to zero in every currency (what the database checks at commit). */
export function isBalanced(entries: readonly Entry[]): boolean {
  const sums = new Map<Currency, bigint>();
  for (const entry of entries) sums.set(entry.currency, (sums.get(entry.currency) ?? 0n) + entry.amount);
  return [...sums.values()].every((sum) => sum === 0n);
}
