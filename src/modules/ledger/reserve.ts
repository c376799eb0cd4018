/**
 * Reserving part of a customer's balance for money going out (an off-ramp, a refund). The caller holds
 * the customer's row lock (`lockCustomer`) in the same database transaction, so concurrent reserves on
 * any number of processes are checked one after the other against everything committed before them,
 * and a balance never goes below zero. This is the one place where money leaves a customer's balance
 * for a payout. BRL is held in one account; a stablecoin is held per chain, so a stablecoin reservation
 * names the chains it is drawn from (`drawFrom`, the wallets' rule: the default chain first, then the
 * others), and a release later puts each part back on its own chain.
 */
import { AppError } from '../../core/errors.ts';
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { Blockchain } from '../rails/chains/networks.ts';
import type { Account, Currency, Entry, JournalKind } from './accounts.ts';
import { formatCurrencyAmount } from './amounts.ts';
import { reserved } from './off-ramp-postings.ts';
import { customerBalance, postJournal } from './repo.ts';

export type Reservation = {
  tenant: Tenant;
  customerId: string;
  currency: Currency;
  amount: bigint;
  /** Where the reserved money goes: OFF_RAMP_RESERVE or PAYOUT_IN_TRANSIT. */
  into: Account;
  kind: JournalKind;
  reference: string;
  transactionId: string;
  at: Date;
  /** For a stablecoin: how the amount is split across the customer's wallets, read under the lock. */
  drawFrom?: ((amount: bigint) => Promise<readonly { blockchain: Blockchain; amount: bigint }[]>) | undefined;
};

/** The entries of a reservation: from the customer's balance (per chain for a stablecoin) into `into`. */
async function reservationEntries(reservation: Reservation): Promise<Entry[]> {
  const { customerId, currency, amount, into, drawFrom } = reservation;
  if (currency === 'BRL' || drawFrom === undefined) return reserved(customerId, currency, amount, into);
  const draws = await drawFrom(amount);
  const drawn = draws.reduce((sum, draw) => sum + draw.amount, 0n);
  if (drawn !== amount) throw new Error(`wallet draws of ${drawn} do not cover the reservation of ${amount}`);
  return [
    ...draws.map(
      (draw): Entry => ({
        account: 'CUSTOMER_WALLET',
        customerId,
        currency,
        amount: draw.amount,
        blockchain: draw.blockchain,
      }),
    ),
    { account: into, customerId: null, currency, amount: -amount },
  ];
}

export async function reserveBalance(tx: Executor, reservation: Reservation): Promise<void> {
  const { customerId, currency, amount } = reservation;
  const balance = await customerBalance(tx, customerId, currency);
  if (balance < amount) {
    throw new AppError(
      'insufficient_funds',
      `The customer's ${currency} balance of ${formatCurrencyAmount(balance, currency)} does not cover ` +
        `${formatCurrencyAmount(amount, currency)}`,
      { extra: { currency, balance: formatCurrencyAmount(balance, currency) } },
    );
  }
  await postJournal(tx, {
    tenant: reservation.tenant,
    kind: reservation.kind,
    reference: reservation.reference,
    transactionId: reservation.transactionId,
    entries: await reservationEntries(reservation),
    at: reservation.at,
  });
}
