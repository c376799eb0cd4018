/**
 * Reserving part of a customer's balance for money going out (an off-ramp, a refund). The caller holds
 * the customer's row lock (`lockCustomer`) in the same database transaction, so concurrent reserves on
 * any number of processes are checked one after the other against everything committed before them,
 * and a balance never goes below zero. This is the one place where money leaves a customer's balance
 * for a payout. BRL is held in one account; a stablecoin is held per chain, so a stablecoin reservation
 * names the chains it is drawn from (`draws`, the wallets' rule: the default chain first, then the
 * others), and a release later puts each part back on its own chain.
 *
 * Two ways to run it: `reserveBalance` reads the balance and posts the journal, statement by statement;
 * a creation that writes everything in one statement reads `holdingsFact` with its other facts after the
 * lock, then adds the parts of `reservationJournal`'s journal (`journalsParts`) to its write.
 */

import type { Blockchain, Currency } from '../../core/currencies.ts';
import { AppError } from '../../core/errors.ts';
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { Account, Entry, JournalKind } from './accounts.ts';
import { formatCurrencyAmount } from './amounts.ts';
import { reserved } from './off-ramp-postings.ts';
import { customerBalance, type HeldSum, type NewJournal } from './repo.ts';
import { postJournal } from './service.ts';

export type Draws = readonly { blockchain: Blockchain; amount: bigint }[];

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
};

/** What a customer holds of one currency: the balance, and (a stablecoin) how it lies on each chain. */
export type Holdings = { balance: bigint; wallets: { blockchain: Blockchain; amount: bigint }[] };

/** What a creation reads of the customer's holdings, with its other facts: by the customer's id. */
export { holdingsFact } from './repo.ts';

/**
 * What the customer holds of `currency`, from `holdingsFact`'s sums: the balance (every entry of the
 * customer in that currency, as `customerBalance`), and its wallets per chain (wallet entries without a
 * chain count on `defaultChain`, as `walletBalances`).
 */
export function holdingsFrom(
  sums: readonly HeldSum[],
  currency: Currency,
  defaultChain: Blockchain,
): Holdings {
  let balance = 0n;
  const wallets = new Map<Blockchain, bigint>();
  for (const held of sums) {
    if (held.currency !== currency) continue;
    balance += held.amount;
    if (held.account === 'CUSTOMER_WALLET') {
      const chain = held.blockchain ?? defaultChain;
      wallets.set(chain, (wallets.get(chain) ?? 0n) + held.amount);
    }
  }
  return { balance, wallets: [...wallets].map(([blockchain, amount]) => ({ blockchain, amount })) };
}

function insufficient(currency: Currency, balance: bigint, amount: bigint): AppError {
  return new AppError(
    'insufficient_funds',
    `The customer's ${currency} balance of ${formatCurrencyAmount(balance, currency)} does not cover ` +
      `${formatCurrencyAmount(amount, currency)}`,
    { extra: { currency, balance: formatCurrencyAmount(balance, currency) } },
  );
}

/** The entries of a reservation: from the customer's balance (per chain for a stablecoin) into `into`. */
function reservationEntries(reservation: Reservation, draws: Draws | undefined): Entry[] {
  const { customerId, currency, amount, into } = reservation;
  if (currency === 'BRL' || draws === undefined) return reserved(customerId, currency, amount, into);
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

/**
 * The journal of a reservation, once the customer's `balance` (read under the row lock) covers it;
 * 422 insufficient_funds otherwise. `draws` (a stablecoin) is asked for only when the balance covers it.
 */
export function reservationJournal(
  reservation: Reservation,
  balance: bigint,
  draws?: (amount: bigint) => Draws,
): NewJournal {
  const { currency, amount } = reservation;
  if (balance < amount) throw insufficient(currency, balance, amount);
  return {
    tenant: reservation.tenant,
    kind: reservation.kind,
    reference: reservation.reference,
    transactionId: reservation.transactionId,
    entries: reservationEntries(reservation, draws?.(amount)),
    at: reservation.at,
  };
}

/** Reserves BRL (a refund's payout), statement by statement. */
export async function reserveBalance(
  tx: Executor,
  reservation: Reservation & { currency: 'BRL' },
): Promise<void> {
  const balance = await customerBalance(tx, reservation.customerId, reservation.currency);
  await postJournal(tx, reservationJournal(reservation, balance));
}
