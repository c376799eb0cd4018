/**
 * Dollars in at Increase, taken: what a webhook names or a sweep lists is read back from Increase
 * (rails/increase/inbound.ts) and handed to the on-ramp (`bankFundsReceived`, applied once by the bank's
 * id). A transfer Ponte cannot take is given back at the bank once the on-ramp has recorded why: an ACH
 * credit returned as refused by the receiver (R23), a wire reversed as forbidden
 * (https://increase.com/documentation/api/inbound-ach-transfers#return-an-inbound-ach-transfer,
 * .../inbound-wire-transfers#reverse-an-inbound-wire-transfer). No database connection is held while
 * Increase is called: the read-back comes before the transaction that applies, the return after it.
 */
import { APIError } from 'increase';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Database } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { IncreaseBank } from '../../rails/increase/client.ts';
import type { InboundUsdTransfer } from '../../rails/increase/inbound.ts';
import type {
  BankDepositResult,
  BankFundsReceived,
  BankPayoutReported,
  InboundBankTransfer,
} from '../offers.ts';
import { recordReturnedAtBank, transfersToReturn } from '../on-ramp/bank-deposit.ts';

export type IntakeDeps = {
  db: Database;
  clock: Clock;
  log: Logger;
  bank: IncreaseBank;
  received: BankFundsReceived;
  /** What the off-ramp does with a payout's state, as the bank reports it. */
  payoutReported: BankPayoutReported;
};

const asTransfer = (inbound: InboundUsdTransfer): InboundBankTransfer => ({
  bank: 'INCREASE',
  bankTransferId: inbound.bankTransferId,
  rail: inbound.rail,
  accountNumberId: inbound.accountNumberId,
  amount: inbound.amount,
  originatorName: inbound.originatorName,
  at: inbound.createdAt,
  // what Increase answered, as JSON: cents as a string
  payload: { ...inbound, amount: inbound.amount.toString() },
});

/**
 * Takes one inbound transfer as Increase reports it now. Only an ACCEPTED one is money in Ponte's account;
 * a PENDING one is taken when it is accepted (its update event, or a later sweep), a DECLINED or RETURNED
 * one never reached it. Answers null when there was nothing to take yet.
 */
export async function takeInbound(
  deps: IntakeDeps,
  environment: Environment,
  inbound: InboundUsdTransfer,
): Promise<BankDepositResult | null> {
  if (inbound.state !== 'ACCEPTED') return null;
  const result = await deps.received(environment, asTransfer(inbound));
  if (result.outcome === 'RETURNED') await giveBack(deps, inbound.bankTransferId, inbound.rail);
  return result;
}

/** Gives a transfer back at Increase and records it; false when Increase could not be told (retried later). */
export async function giveBack(
  deps: IntakeDeps,
  bankTransferId: string,
  rail: 'ACH' | 'WIRE',
): Promise<boolean> {
  try {
    if (rail === 'ACH') await deps.bank.returnInboundAch(bankTransferId, 'credit_entry_refused_by_receiver');
    else await deps.bank.reverseInboundWire(bankTransferId, 'transaction_forbidden');
  } catch (error) {
    // 409: Increase says it was given back already (a retry after a lost answer)
    if (!(error instanceof APIError && error.status === 409)) {
      deps.log.error({ err: error, bankTransferId }, 'giving an inbound transfer back at Increase failed');
      return false;
    }
  }
  await recordReturnedAtBank(deps.db, 'INCREASE', bankTransferId, deps.clock());
  return true;
}

/** Retries the returns Increase has not yet accepted; how many it made. */
export async function returnOutstanding(deps: IntakeDeps, environment: Environment): Promise<number> {
  let made = 0;
  for (const row of await transfersToReturn(deps.db, 'INCREASE', environment, 50)) {
    if (await giveBack(deps, row.bank_transfer_id, row.rail)) made += 1;
  }
  return made;
}
