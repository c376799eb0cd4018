/**
 * The sandbox's own US bank, paying out: every ACH or wire payout settles in its answer, except that an
 * off-ramp whose `sourceAmount` ends in .13 is refused by the receiving bank, so a partner can exercise
 * the failure path (the PIX sandbox's rule). Returns are simulated with
 * `POST /sandbox/transactions/{id}/return {code?}`.
 */
import type { PayoutOrder, SubmitAnswer } from '../fiat-rail.ts';
import { endsInThirteenCents } from '../pix/sandbox-payout.ts';
import type { UsdDestination, UsdPayoutRail } from './payout-rail.ts';

export const SANDBOX_USD_REJECTION =
  'the receiving bank refused the transfer (sandbox: a sourceAmount ending in .13)';

export const sandboxUsdRail: UsdPayoutRail = {
  currency: 'USD',
  reportsLater: false,
  async payOut(order: PayoutOrder<UsdDestination>): Promise<SubmitAnswer> {
    if (endsInThirteenCents(order.source.amount, order.source.scale)) {
      return { result: { status: 'REJECTED', reason: SANDBOX_USD_REJECTION } };
    }
    return { result: { status: 'COMPLETED' } };
  },
  // every payout is settled in its answer: there is never one to look up
  async lookUp() {
    return { unknown: true };
  },
};
