/**
 * The money movements of an on-ramp, each as a balanced set of entries, in the fiat it came in (BRL, USD):
 * - deposit received: the PIX account (BRL) or the US bank account (USD) gains fiat that the platform now
 *   owes the customer;
 * - fee: part of what the customer is owed becomes the platform's revenue;
 * - conversion: the rest goes to the conversion desk, which delivers stablecoin into transit;
 * - stablecoin credited: the stablecoin in transit lands in the customer's wallet.
 */
import type { Blockchain, Currency, FiatCurrency } from '../../core/currencies.ts';
import type { Entry } from './accounts.ts';

/** Where a fiat currency arrives: BRL in the PIX account, USD in the account at the US bank. */
const SETTLEMENT = { BRL: 'PIX_SETTLEMENT', USD: 'BANK_SETTLEMENT' } as const;

export function depositReceived(customerId: string, amount: bigint, fiat: FiatCurrency = 'BRL'): Entry[] {
  return [
    { account: SETTLEMENT[fiat], customerId: null, currency: fiat, amount },
    { account: 'CUSTOMER_FIAT', customerId, currency: fiat, amount: -amount },
  ];
}

export function feeCharged(
  customerId: string,
  platform: bigint,
  partner: bigint,
  fiat: FiatCurrency = 'BRL',
): Entry[] {
  return [
    { account: 'CUSTOMER_FIAT', customerId, currency: fiat, amount: platform + partner },
    { account: 'FEE_REVENUE', customerId: null, currency: fiat, amount: -platform },
    { account: 'PARTNER_FEE_REVENUE', customerId: null, currency: fiat, amount: -partner },
  ];
}

export function converted(
  customerId: string,
  net: bigint,
  target: Currency,
  targetAmount: bigint,
  fiat: FiatCurrency = 'BRL',
): Entry[] {
  return [
    { account: 'CUSTOMER_FIAT', customerId, currency: fiat, amount: net },
    { account: 'CONVERSION_DESK', customerId: null, currency: fiat, amount: -net },
    { account: 'CONVERSION_DESK', customerId: null, currency: target, amount: targetAmount },
    { account: 'STABLECOIN_IN_TRANSIT', customerId: null, currency: target, amount: -targetAmount },
  ];
}

export function stablecoinCredited(
  customerId: string,
  currency: Currency,
  amount: bigint,
  blockchain: Blockchain,
): Entry[] {
  return [
    { account: 'STABLECOIN_IN_TRANSIT', customerId: null, currency, amount },
    { account: 'CUSTOMER_WALLET', customerId, currency, amount: -amount, blockchain },
  ];
}

/**
 * The money movements of wallets, each per chain:
 * - wallet transfer: from one customer's wallet to another's, on the same chain, at once;
 * - chain send: a customer's stablecoin leaves their wallet for an external address and waits;
 * - settled: the chain confirmed it, so it left the platform's holdings; reversed: it failed, and
 *   goes back to the wallet;
 * - chain deposit: tokens that arrived on chain at a customer's address, now theirs.
 */
export function walletTransfer(
  from: string,
  to: string,
  currency: Currency,
  amount: bigint,
  blockchain: Blockchain,
): Entry[] {
  return [
    { account: 'CUSTOMER_WALLET', customerId: from, currency, amount, blockchain },
    { account: 'CUSTOMER_WALLET', customerId: to, currency, amount: -amount, blockchain },
  ];
}

export function chainSend(
  customerId: string,
  currency: Currency,
  amount: bigint,
  blockchain: Blockchain,
): Entry[] {
  return [
    { account: 'CUSTOMER_WALLET', customerId, currency, amount, blockchain },
    { account: 'CHAIN_OUTBOUND', customerId: null, currency, amount: -amount },
  ];
}

export function chainSendSettled(currency: Currency, amount: bigint): Entry[] {
  return [
    { account: 'CHAIN_OUTBOUND', customerId: null, currency, amount },
    { account: 'CHAIN_HOLDINGS', customerId: null, currency, amount: -amount },
  ];
}

export function chainSendReversed(
  customerId: string,
  currency: Currency,
  amount: bigint,
  blockchain: Blockchain,
): Entry[] {
  return [
    { account: 'CHAIN_OUTBOUND', customerId: null, currency, amount },
    { account: 'CUSTOMER_WALLET', customerId, currency, amount: -amount, blockchain },
  ];
}

export function chainDeposit(
  customerId: string,
  currency: Currency,
  amount: bigint,
  blockchain: Blockchain,
): Entry[] {
  return [
    { account: 'CHAIN_HOLDINGS', customerId: null, currency, amount },
    { account: 'CUSTOMER_WALLET', customerId, currency, amount: -amount, blockchain },
  ];
}

/** An operator's correction of a credited deposit the chain no longer holds: the credit taken back. */
export function chainDepositReversed(
  customerId: string,
  currency: Currency,
  amount: bigint,
  blockchain: Blockchain,
): Entry[] {
  return [
    { account: 'CUSTOMER_WALLET', customerId, currency, amount, blockchain },
    { account: 'CHAIN_HOLDINGS', customerId: null, currency, amount: -amount },
  ];
}
