/**
 * Settlement carries a funded transaction forward, one step per database transaction, each step under
 * the transaction's row lock with its ledger postings and its event:
 * - TRANSFERRING_FIAT → TRADING: the deposit has settled in the platform's PIX account;
 * - TRADING → TRANSFERRING_STABLECOIN: the fee is charged and the rest converted at the rate in force
 *   (no rate for the pair, or an amount too small to convert: FAILED, the BRL held for refund);
 * - TRANSFERRING_STABLECOIN → SUCCESS: the stablecoin is credited to the customer's wallet.
 * The request that received the deposit runs the steps right away; a worker finishes whatever a
 * crash or a failure left in flight. Each step checks the status it starts from, so running it twice,
 * or from two processes, does it once.
 */

import type { Clock } from '../../core/clock.ts';
import { formatDecimalTrimmed } from '../../core/decimal.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { converted, feeCharged, stablecoinCredited } from '../ledger/postings.ts';
import { postJournal } from '../ledger/service.ts';
import { convertOnRamp, RATE_SCALE } from '../rates/convert.ts';
import { currentRate } from '../rates/service.ts';
import { claimInFlight, lockTransaction, type TransactionRow } from './repo.ts';
import { IN_FLIGHT } from './state.ts';
import { transitionTransaction } from './transition.ts';

/** Largest amount a bigint column holds. */
const INT8_MAX = 9_223_372_036_854_775_807n;

const tenantOf = (row: TransactionRow): Tenant => ({
  projectId: row.project_id,
  environment: row.environment,
});

async function trade(tx: Executor, row: TransactionRow, at: Date): Promise<TransactionRow> {
  const pair = `BRL/${row.target_currency}` as const;
  const rate = await currentRate(tx, pair);
  if (!rate) {
    return transitionTransaction(tx, row, 'FAILED', at, {
      failure_reason: `No ${pair} rate is set, so the deposit could not be converted; it is held for refund`,
    });
  }
  const conversion = convertOnRamp(
    row.amount,
    { basisPoints: row.fee_basis_points, flat: row.fee_flat },
    rate.rate,
  );
  if (conversion.net <= 0n || conversion.target <= 0n || conversion.target > INT8_MAX) {
    return transitionTransaction(tx, row, 'FAILED', at, {
      failure_reason:
        `At ${formatDecimalTrimmed(rate.rate, RATE_SCALE)} ${pair} the deposit converts to no ` +
        `representable amount of ${row.target_currency}; it is held for refund`,
    });
  }
  const common = { tenant: tenantOf(row), transactionId: row.id, reference: row.id, at };
  if (conversion.fee > 0n) {
    await postJournal(tx, { ...common, kind: 'FEE', entries: feeCharged(row.customer_id, conversion.fee) });
  }
  await postJournal(tx, {
    ...common,
    kind: 'CONVERSION',
    entries: converted(row.customer_id, conversion.net, row.target_currency, conversion.target),
  });
  return transitionTransaction(tx, row, 'TRANSFERRING_STABLECOIN', at, {
    rate: conversion.rate,
    fee: conversion.fee,
    net_amount: conversion.net,
    target_amount: conversion.target,
  });
}

async function credit(tx: Executor, row: TransactionRow, at: Date): Promise<TransactionRow> {
  await postJournal(tx, {
    tenant: tenantOf(row),
    kind: 'STABLECOIN_CREDITED',
    reference: row.id,
    transactionId: row.id,
    entries: stablecoinCredited(row.customer_id, row.target_currency, row.target_amount!),
    at,
  });
  return transitionTransaction(tx, row, 'SUCCESS', at);
}

/** Performs the next settlement step of a locked transaction; a transaction not in flight is left alone. */
export async function settleStep(tx: Executor, row: TransactionRow, at: Date): Promise<TransactionRow> {
  switch (row.status) {
    case 'TRANSFERRING_FIAT':
      return transitionTransaction(tx, row, 'TRADING', at);
    case 'TRADING':
      return trade(tx, row, at);
    case 'TRANSFERRING_STABLECOIN':
      return credit(tx, row, at);
    default:
      return row;
  }
}

/** Runs every remaining step of one transaction, each in its own database transaction. */
export async function settle(db: Database, clock: Clock, id: string): Promise<void> {
  for (;;) {
    const status = await db.transaction(async (tx) => {
      const row = await lockTransaction(tx, id);
      if (!row) return null;
      return (await settleStep(tx, row, clock())).status;
    });
    if (status === null || !IN_FLIGHT.includes(status)) return;
  }
}

/**
 * Settles a transaction that has just been funded, for the request that funded it. The deposit is
 * already committed, so an unexpected error here only delays settlement: the worker carries the
 * transaction on, and the caller answers with the state reached so far.
 */
export async function settleNow(db: Database, clock: Clock, id: string): Promise<void> {
  try {
    await settle(db, clock, id);
  } catch {
    // left in flight for settleInFlight
  }
}

/** Worker: carries forward up to `batch` in-flight steps; safe on several processes (SKIP LOCKED). */
export async function settleInFlight(db: Database, clock: Clock, batch = 50): Promise<number> {
  let done = 0;
  while (done < batch) {
    const moved = await db.transaction(async (tx) => {
      const row = await claimInFlight(tx);
      if (!row) return false;
      await settleStep(tx, row, clock());
      return true;
    });
    if (!moved) break;
    done++;
  }
  return done;
}
