/**
 * How an amount is taken from a customer's wallets when no chain is named (a money-out paid from the
 * customer's stablecoin balance): the default chain first, then the other chains in their listed order,
 * each giving what it holds, until the amount is covered. Call under the customer's row lock, so that
 * what is read here is what the caller posts.
 */

import { BLOCKCHAINS, type Blockchain, type Stablecoin } from '../../core/currencies.ts';
import { formatDecimal } from '../../core/decimal.ts';
import { AppError } from '../../core/errors.ts';
import type { Executor } from '../../db/types.ts';
import { walletBalances } from './repo.ts';

export type Draw = { blockchain: Blockchain; amount: bigint };

export async function drawFromWallets(
  tx: Executor,
  customerId: string,
  currency: Stablecoin,
  amount: bigint,
  defaultChain: Blockchain,
): Promise<Draw[]> {
  const balances = await walletBalances(tx, customerId, defaultChain);
  return drawFromHoldings(
    balances.filter((b) => b.currency === currency),
    currency,
    amount,
    defaultChain,
  );
}

/** The same rule over what the customer holds of `currency` on each chain, already read under the lock. */
export function drawFromHoldings(
  holdings: readonly { blockchain: Blockchain; amount: bigint }[],
  currency: Stablecoin,
  amount: bigint,
  defaultChain: Blockchain,
): Draw[] {
  const order = [defaultChain, ...BLOCKCHAINS.filter((chain) => chain !== defaultChain)];
  const draws: Draw[] = [];
  let left = amount;
  for (const blockchain of order) {
    if (left === 0n) break;
    const held = holdings.find((b) => b.blockchain === blockchain)?.amount ?? 0n;
    const take = held < left ? held : left;
    if (take > 0n) {
      draws.push({ blockchain, amount: take });
      left -= take;
    }
  }
  if (left > 0n) {
    const total = amount - left;
    throw new AppError(
      'insufficient_funds',
      `The customer's wallets hold ${formatDecimal(total, 6)} ${currency}, less than ${formatDecimal(amount, 6)}`,
      { extra: { available: formatDecimal(total, 6) } },
    );
  }
  return draws;
}
