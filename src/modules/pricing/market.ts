/**
 * The market rate in force for a pair: the newest one the operator set (an override past its expiry is
 * not in force); in the sandbox, while the operator has none in force, the configured default, so that
 * every sandbox flow completes on its own.
 */
import type { MoneyOutConfig } from '../../config.ts';
import type { Currency, Pair } from '../../core/currencies.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import { UNIT_RATE } from './pricing.ts';
import { rateInForce } from './rates-repo.ts';

export const pairOf = (source: Currency, target: Currency): Pair => `${source}/${target}` as Pair;

export async function marketRate(
  db: Executor,
  environment: Environment,
  pair: Pair,
  sandboxRates: MoneyOutConfig['sandboxRates'],
  now: Date,
): Promise<bigint | undefined> {
  const set = await rateInForce(db, pair, now);
  return rateOrSandboxDefault(set?.rate ?? null, environment, pair, sandboxRates);
}

/** The rate the operator set (`set`, the newest), or in the sandbox while there is none the default. */
export function rateOrSandboxDefault(
  set: bigint | null,
  environment: Environment,
  pair: Pair,
  sandboxRates: MoneyOutConfig['sandboxRates'],
): bigint | undefined {
  if (set !== null) return set;
  return environment === 'sandbox' ? sandboxRates[pair] : undefined;
}

/** Units of BRL per unit of `currency` (1 for BRL itself). */
export async function rateToBrl(
  db: Executor,
  environment: Environment,
  currency: Currency,
  sandboxRates: MoneyOutConfig['sandboxRates'],
  now: Date,
): Promise<bigint | undefined> {
  if (currency === 'BRL') return UNIT_RATE;
  return marketRate(db, environment, pairOf(currency, 'BRL'), sandboxRates, now);
}
