/**
 * The money movements of an on-ramp, each as a balanced set of entries:
 * - deposit received: the PIX account gains BRL that the platform now owes the customer;
 * - fee: part of what the customer is owed becomes the platform's revenue;
 * - conversion: the rest goes to the conversion desk, which delivers stablecoin into transit;
 * - stablecoin credited: the stablecoin in transit lands in the customer's wallet.
 */
import type { Currency, Entry } from './accounts.ts';

export function depositReceived(customerId: string, amount: bigint): Entry[] {
  return [
    { account: 'PIX_SETTLEMENT', customerId: null, currency: 'BRL', amount },
    { account: 'CUSTOMER_FIAT', customerId, currency: 'BRL', amount: -amount },
  ];
}

export function feeCharged(customerId: string, platform: bigint, partner: bigint): Entry[] {
  return [
    { account: 'CUSTOMER_FIAT', customerId, currency: 'BRL', amount: platform + partner },
    { account: 'FEE_REVENUE', customerId: null, currency: 'BRL', amount: -platform },
    { account: 'PARTNER_FEE_REVENUE', customerId: null, currency: 'BRL', amount: -partner },
  ];
}

export function converted(customerId: string, net: bigint, target: Currency, targetAmount: bigint): Entry[] {
  return [
    { account: 'CUSTOMER_FIAT', customerId, currency: 'BRL', amount: net },
    { account: 'CONVERSION_DESK', customerId: null, currency: 'BRL', amount: -net },
    { account: 'CONVERSION_DESK', customerId: null, currency: target, amount: targetAmount },
    { account: 'STABLECOIN_IN_TRANSIT', customerId: null, currency: target, amount: -targetAmount },
  ];
}

export function stablecoinCredited(customerId: string, currency: Currency, amount: bigint): Entry[] {
  return [
    { account: 'STABLECOIN_IN_TRANSIT', customerId: null, currency, amount },
    { account: 'CUSTOMER_WALLET', customerId, currency, amount: -amount },
  ];
}
