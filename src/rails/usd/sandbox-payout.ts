/**
 * The sandbox's own US bank, paying out: every ACH or wire payout settles in its answer, except that one
 * whose amount ends in .13 is refused by the receiving bank, so a partner can exercise the failure path
 * (the PIX sandbox's rule, on the payout's own dollars). Returns are simulated with
 * `POST /sandbox/transactions/{id}/return {code?}`.
 */
import { CURRENCY_SCALE } from '../../core/currencies.ts';
import type { PayoutOrder, SubmitAnswer } from '../fiat-rail.ts';
import { endsInThirteenCents } from '../pix/sandbox-payout.ts';
import type { UsdDestination, UsdPayoutRail } from './payout-rail.ts';

export const SANDBOX_USD_REJECTION =
  'the receiving bank refused the transfer (sandbox: a payout amount ending in .13)';

export const sandboxUsdRail: UsdPayoutRail = {
  currency: 'USD',
  reportsLater: false,
  async payOut(order: PayoutOrder<UsdDestination>): Promise<SubmitAnswer> {
    if (endsInThirteenCents(order.amount, CURRENCY_SCALE.USD)) {
      return { result: { status: 'REJECTED', reason: SANDBOX_USD_REJECTION } };
    }
    return { result: { status: 'COMPLETED' } };
  },
  // every payout is settled in its answer: there is never one to look up
  async lookUp() {
    return { unknown: true };
  },
};
