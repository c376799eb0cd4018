/**
 * The money movements of money out, each a balanced set of entries:
 * - reserved: the customer's balance moves into the off-ramp reserve (or, for a refund, straight into
 *   the payout in transit);
 * - fee: part of the reserve becomes the platform's and the partner's revenue (source currency);
 * - conversion: the rest goes to the conversion desk, which delivers the payout's fiat (BRL, USD) into
 *   the payout in transit;
 * - payout sent: the fiat leaves the platform's account on its rail (BRL: the PIX account; USD: the
 *   account at the US bank);
 * - returned: a payout the receiving bank sent back lands in the customer's balance of its currency;
 * - released: everything a failed transaction moved is moved back (see releaseEntries in repo.ts).
 */

import type { Currency } from '../../core/currencies.ts';
import { type Account, customerAccountFor, type Entry } from './accounts.ts';

export function reserved(customerId: string, currency: Currency, amount: bigint, into: Account): Entry[] {
  return [
    { account: customerAccountFor(currency), customerId, currency, amount },
    { account: into, customerId: null, currency, amount: -amount },
  ];
}

export function offRampFee(currency: Currency, platform: bigint, partner: bigint): Entry[] {
  return [
    { account: 'OFF_RAMP_RESERVE', customerId: null, currency, amount: platform + partner },
    { account: 'FEE_REVENUE', customerId: null, currency, amount: -platform },
    { account: 'PARTNER_FEE_REVENUE', customerId: null, currency, amount: -partner },
  ];
}

/** The fiat a payout pays: BRL over PIX, USD over ACH or wire. */
export type PayoutCurrency = Extract<Currency, 'BRL' | 'USD'>;

/** The platform's own account a payout's fiat leaves from, and a return lands in. */
const SETTLEMENT: Record<PayoutCurrency, Account> = { BRL: 'PIX_SETTLEMENT', USD: 'BANK_SETTLEMENT' };

export function offRampConverted(
  source: Currency,
  net: bigint,
  targetAmount: bigint,
  target: PayoutCurrency = 'BRL',
): Entry[] {
  return [
    { account: 'OFF_RAMP_RESERVE', customerId: null, currency: source, amount: net },
    { account: 'CONVERSION_DESK', customerId: null, currency: source, amount: -net },
    { account: 'CONVERSION_DESK', customerId: null, currency: target, amount: targetAmount },
    { account: 'PAYOUT_IN_TRANSIT', customerId: null, currency: target, amount: -targetAmount },
  ];
}

export function payoutSent(amount: bigint, currency: PayoutCurrency = 'BRL'): Entry[] {
  return [
    { account: 'PAYOUT_IN_TRANSIT', customerId: null, currency, amount },
    { account: SETTLEMENT[currency], customerId: null, currency, amount: -amount },
  ];
}

export function payoutReturned(
  customerId: string,
  amount: bigint,
  currency: PayoutCurrency = 'BRL',
): Entry[] {
  return [
    { account: SETTLEMENT[currency], customerId: null, currency, amount },
    { account: 'CUSTOMER_FIAT', customerId, currency, amount: -amount },
  ];
}

export function refundReleased(customerId: string, amount: bigint): Entry[] {
  return [
    { account: 'PAYOUT_IN_TRANSIT', customerId: null, currency: 'BRL', amount },
    { account: 'CUSTOMER_FIAT', customerId, currency: 'BRL', amount: -amount },
  ];
}
