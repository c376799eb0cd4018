/**
 * The settlement steps of a funded on-ramp, run one per database transaction by transactions/in-flight.ts,
 * each under the transaction's row lock with its ledger postings and its event:
 * - TRANSFERRING_FIAT → TRADING: the deposit has settled in the platform's PIX account (dollars: in its
 *   US bank account, and the customer is not on compliance hold);
 * - TRADING → TRANSFERRING_STABLECOIN: the fee is charged and the rest converted at the rate in force
 *   (no rate for the pair, or an amount too small to convert: FAILED, the BRL held for refund);
 * - TRANSFERRING_STABLECOIN → SUCCESS: the stablecoin goes to the customer's wallet on its chain
 *   (delivery.ts), credited once the chain has confirmed the transfer.
 * The request that received the deposit runs the steps right away; a worker finishes whatever a
 * crash or a failure left in flight. Each step checks the status it starts from, so running it twice,
 * or from two processes, does it once.
 */

import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { FiatCurrency } from '../../core/currencies.ts';
import { formatDecimalTrimmed } from '../../core/decimal.ts';
import type { FailureCode } from '../../core/failure-codes.ts';
import type { Executor } from '../../db/types.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { converted, feeCharged } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import { pairOf } from '../pricing/market.ts';
import { type Pricing, PricingError, priceFromSource, RATE_SCALE, UNIT_RATE } from '../pricing/pricing.ts';
import { type ReferenceColumns, referenceColumns, settlementRate } from '../pricing/service.ts';
import { holdsAtSend } from '../screening/service.ts';
import { type SettlementDeps, type SettlementStep, settleNow } from '../transactions/in-flight.ts';
import { type TransactionRow, tenantOf } from '../transactions/read-service.ts';
import { progressSend } from '../wallets/sender.ts';
import { deliverStablecoin, deliveryHandler } from './delivery.ts';
import { moveOnRamp } from './state.ts';

/**
 * What a settlement step needs: the configuration (rates, fees), the market references (a conversion
 * without a quote) and the chains (on-chain delivery).
 */
export type StepDeps = { config: Config; chains: ChainRegistry; references: AppContext['references'] };

/** The conversion of an on-ramp: its LOCKED quote's figures, or the rate in force now. */
async function onRampConversion(
  tx: Executor,
  deps: StepDeps,
  row: TransactionRow,
  at: Date,
): Promise<(Pricing & Partial<ReferenceColumns>) | { failure: string; code: FailureCode }> {
  if (row.rate !== null) {
    return {
      sourceCurrency: row.currency,
      targetCurrency: row.target_currency,
      source: row.amount,
      platformFee: row.platform_fee!,
      partnerFee: row.partner_fee!,
      fee: row.fee!,
      net: row.net_amount!,
      baseRate: row.rate,
      target: row.target_amount!,
      limitAmountBrl: row.limit_amount_brl,
    };
  }
  const pair = pairOf(row.currency, row.target_currency);
  const priced = await settlementRate(tx, deps, row.environment, pair, at);
  if ('unavailable' in priced) {
    return {
      failure: `${priced.unavailable}, so the deposit could not be converted; it is held for refund`,
      code: 'rate_unavailable',
    };
  }
  const rate = priced.rate;
  try {
    const pricing = priceFromSource(
      {
        sourceCurrency: row.currency,
        targetCurrency: row.target_currency,
        baseRate: rate,
        rateToBrl: UNIT_RATE,
        platform: { basisPoints: row.fee_basis_points, flat: row.fee_flat, minimum: row.fee_minimum },
        partner: { basisPoints: row.partner_fee_basis_points, flat: row.partner_fee_flat, minimum: 0n },
      },
      row.amount,
    );
    return { ...pricing, ...referenceColumns(priced) };
  } catch (error) {
    if (!(error instanceof PricingError)) throw error;
    return {
      failure:
        `At ${formatDecimalTrimmed(rate, RATE_SCALE)} ${pair} the deposit converts to no ` +
        `representable amount of ${row.target_currency}; it is held for refund`,
      code: 'conversion_unrepresentable',
    };
  }
}

async function trade(tx: Executor, deps: StepDeps, row: TransactionRow, at: Date): Promise<TransactionRow> {
  const conversion = await onRampConversion(tx, deps, row, at);
  if ('failure' in conversion) {
    return moveOnRamp(tx, row, 'FAILED', at, {
      failure_reason: conversion.failure,
      failure_code: conversion.code,
    });
  }
  const common = { tenant: tenantOf(row), transactionId: row.id, reference: row.id, at };
  const fiat = row.currency as FiatCurrency;
  if (conversion.fee > 0n) {
    await postJournal(tx, {
      ...common,
      kind: 'FEE',
      entries: feeCharged(row.customer_id, conversion.platformFee, conversion.partnerFee, fiat),
    });
  }
  await postJournal(tx, {
    ...common,
    kind: 'CONVERSION',
    entries: converted(row.customer_id, conversion.net, row.target_currency, conversion.target, fiat),
  });
  return moveOnRamp(tx, row, 'TRANSFERRING_STABLECOIN', at, {
    rate: conversion.baseRate,
    fee: conversion.fee,
    net_amount: conversion.net,
    target_amount: conversion.target,
    platform_fee: conversion.platformFee,
    partner_fee: conversion.partnerFee,
    reference_source: conversion.reference_source ?? null,
    reference_rate: conversion.reference_rate ?? null,
    reference_at: conversion.reference_at ?? null,
  });
}

/**
 * Dollars received by a customer on compliance hold stay uncredited (TRANSFERRING_FIAT, owed to the
 * customer) until the case is decided: cleared, they trade; a confirmed match FAILS the on-ramp and the
 * dollars are held for refund. The worker that carries in-flight transactions asks again.
 */
async function tradeUnlessHeld(tx: Executor, row: TransactionRow, at: Date): Promise<TransactionRow> {
  const { holdOf } = await holdsAtSend(tx, [row.customer_id]);
  const hold = holdOf({ customerId: row.customer_id }).state;
  if (hold === 'HELD') return row;
  if (hold === 'REFUSED') {
    return moveOnRamp(tx, row, 'FAILED', at, {
      failure_reason:
        'A compliance review confirmed a screening match on the customer; the deposit is held for refund',
      failure_code: 'compliance_refused',
    });
  }
  return moveOnRamp(tx, row, 'TRADING', at);
}

/** The next settlement step of a locked on-ramp; one not in flight is left alone. */
export function onRampStep(deps: StepDeps): SettlementStep {
  const { chains } = deps;
  return (tx, row, at) => {
    switch (row.status) {
      case 'TRANSFERRING_FIAT':
        return row.rail === 'PIX' ? moveOnRamp(tx, row, 'TRADING', at) : tradeUnlessHeld(tx, row, at);
      case 'TRADING':
        return trade(tx, deps, row, at);
      case 'TRANSFERRING_STABLECOIN':
        return deliverStablecoin(tx, chains, row, at);
      default:
        return Promise.resolve(row);
    }
  };
}

/**
 * Settles an on-ramp that has just been funded, for the request that funded it; one waiting for its
 * on-chain delivery has the send carried as far as it goes now.
 */
export function settleOnRamp(deps: SettlementDeps & StepDeps, id: string): Promise<void> {
  const { db, chains, clock } = deps;
  return settleNow(deps, id, onRampStep(deps), (send) =>
    progressSend({ db, chains, clock, log: deps.log, offers: { deliveries: deliveryHandler } }, send),
  );
}
