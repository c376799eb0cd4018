/**
 * A compliance hold stops a payout or a refund at the moment it would leave: one accepted before the hold,
 * still waiting for the rail (a PSP that was down, a retry), is looked at again in the transaction that
 * claims it. Its customer, or the holder of its receiving account, on hold: it is held, its reserve kept,
 * until the case is decided; a match already confirmed: it is refused, the reserve released. A decision
 * releases or refuses the held ones at once.
 *
 * A payout handed to its rail before (a send whose answer never came: a timeout, a 5xx, a process killed)
 * may have been made all the same. It is never refused blind: it is looked up at the rail first
 * (payout-submission.ts), and refused only when the rail never made it.
 */
import type { Executor } from '../../db/types.ts';
import { type CaseRow, holdsAtSend } from '../screening/service.ts';
import { refusePayout } from './payout.ts';
import {
  holdPayout,
  lockHeldPayouts,
  type PayoutRow,
  payoutCustomers,
  releaseHeldPayout,
} from './payout-repo.ts';

/** Whether a claimed payout was handed to its rail by an earlier claim (the claim counts itself). */
export const triedBefore = (payout: Pick<PayoutRow, 'attempts'>) => payout.attempts > 1;

/**
 * Of payouts just claimed (in the claiming transaction), those free to leave, and those a confirmed match
 * refuses that were tried before (to be looked up before they are refused); the others are held or
 * refused here, in the same transaction, so a hold committed before the claim is never missed.
 */
export async function payoutsFreeToLeave(
  tx: Executor,
  claimed: PayoutRow[],
  at: Date,
): Promise<{ free: PayoutRow[]; toLookUp: PayoutRow[] }> {
  if (claimed.length === 0) return { free: claimed, toLookUp: [] };
  const customers = await payoutCustomers(
    tx,
    claimed.map((payout) => payout.end_to_end_id),
  );
  const { holdOf } = await holdsAtSend(
    tx,
    [...customers.values()],
    claimed.flatMap((payout) => (payout.bank_account_id ? [payout.bank_account_id] : [])),
  );
  const free: PayoutRow[] = [];
  const toLookUp: PayoutRow[] = [];
  for (const payout of claimed) {
    const hold = holdOf({
      customerId: customers.get(payout.end_to_end_id)!,
      bankAccountId: payout.bank_account_id,
    });
    if (hold.state === 'FREE') free.push(payout);
    else if (hold.state === 'HELD') await holdPayout(tx, payout.end_to_end_id, at);
    else if (triedBefore(payout)) toLookUp.push(payout);
    else await refusePayout(tx, payout.environment, payout.end_to_end_id, at);
  }
  return { free, toLookUp };
}

/**
 * A decided case of a customer, its party or an account's holder (under the customer's row lock): the
 * payouts it held are refused (CONFIRMED) or due again (CLEARED; their claim looks at every other hold).
 * A held payout tried before is due again either way: its claim looks it up at the rail before refusing.
 */
export async function decideHeldPayouts(
  tx: Executor,
  decided: Pick<CaseRow, 'subject_type' | 'subject_id' | 'customer_id' | 'status'>,
  at: Date,
): Promise<void> {
  const held = await lockHeldPayouts(
    tx,
    decided.subject_type === 'BANK_ACCOUNT_HOLDER'
      ? { bankAccountId: decided.subject_id }
      : { customerId: decided.customer_id },
  );
  for (const payout of held) {
    if (decided.status === 'CONFIRMED' && !triedBefore(payout)) {
      await refusePayout(tx, payout.environment, payout.end_to_end_id, at);
    } else {
      await releaseHeldPayout(tx, payout.end_to_end_id, at);
    }
  }
}
