/**
 * The market rate in force for a pair: the newest one the operator set; in the sandbox, while the
 * operator has set none, the configured default, so that every sandbox flow completes on its own.
 */
import type { MoneyOutConfig } from '../../config.ts';
import type { Currency } from '../../core/currencies.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import { currentRate, type Pair } from '../rates/service.ts';
import { UNIT_RATE } from './pricing.ts';

export const pairOf = (source: Currency, target: Currency): Pair => `${source}/${target}` as Pair;

export async function marketRate(
  db: Executor,
  environment: Environment,
  pair: Pair,
  sandboxRates: MoneyOutConfig['sandboxRates'],
): Promise<bigint | undefined> {
  const set = await currentRate(db, pair);
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
): Promise<bigint | undefined> {
  if (currency === 'BRL') return UNIT_RATE;
  return marketRate(db, environment, pairOf(currency, 'BRL'), sandboxRates);
}
