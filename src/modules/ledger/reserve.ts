/**
 * Reserving part of a customer's balance for money going out (an off-ramp, a refund). The caller holds
 * the customer's row lock (`lockCustomer`) in the same database transaction, so concurrent reserves on
 * any number of processes are checked one after the other against everything committed before them,
 * and a balance never goes below zero. This is the one place where money leaves a customer's balance
 * for a payout: where the balance is held (one account per currency today) is decided here.
 */
import { AppError } from '../../core/errors.ts';
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { Account, Currency, JournalKind } from './accounts.ts';
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
};

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
    entries: reserved(customerId, currency, amount, reservation.into),
    at: reservation.at,
  });
}
