/**
 * The sandbox PIX payout rail: settles every payment at once, except that an off-ramp whose
 * `sourceAmount` ends in .13 is rejected by the receiving institution, so a partner can exercise the
 * failure path. Returns are simulated with `POST /sandbox/transactions/{id}/return`.
 */
import { pow10 } from '../../core/decimal.ts';
import type { SubmitAnswer } from '../fiat-rail.ts';
import type { PayoutOrder, PayoutRail } from './payout-rail.ts';

export const SANDBOX_REJECTION =
  'the receiving institution refused the payment (sandbox: a sourceAmount ending in .13)';

export function endsInThirteenCents(amount: bigint, scale: number): boolean {
  return scale >= 2 && amount % pow10(scale) === 13n * pow10(scale - 2);
}

export const sandboxPayoutRail: PayoutRail = {
  async submit(order: PayoutOrder): Promise<SubmitAnswer> {
    if (order.kind === 'OFF_RAMP' && endsInThirteenCents(order.source.amount, order.source.scale)) {
      return { result: { status: 'REJECTED', reason: SANDBOX_REJECTION } };
    }
    return { result: { status: 'COMPLETED' } };
  },
};
