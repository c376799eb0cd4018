import { CURRENCY_SCALE, type Currency } from '../../core/currencies.ts';
import { formatDecimal } from '../../core/decimal.ts';
import { notFound } from '../../core/errors.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { findCustomer } from '../customers/service.ts';
import { customerBalances } from '../ledger/service.ts';

/**
 * A customer's holdings per currency, derived from the ledger beside their wallets' per-chain balances
 * (which add up to these): stablecoin in their wallets, and fiat the platform holds for them (BRL deposits
 * that could not be converted, held for refund; BRL or USD a payout's receiving bank sent back). Every
 * currency is listed.
 */
const ORDER: Currency[] = ['USDC', 'USDT', 'BRL', 'USD'];

export function createBalanceService(deps: { db: Database }) {
  const { db } = deps;

  async function get(tenant: Tenant, customerId: string) {
    const customer = await findCustomer(db, tenant, customerId);
    if (!customer) throw notFound('Customer');
    const balances = await customerBalances(db, customer.id);
    return {
      customerId: customer.id,
      balances: ORDER.map((currency) => ({
        currency,
        amount: formatDecimal(balances.get(currency) ?? 0n, CURRENCY_SCALE[currency]),
      })),
    };
  }

  return { get };
}
