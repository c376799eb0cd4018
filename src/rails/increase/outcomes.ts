/**
 * Where a payout stands, as Increase's transfer says: `status` with, for ACH, `settlement` and `return`
 * (https://increase.com/documentation/ach-transfers: an ACH transfer stays `submitted` once sent; it is
 * settled when `settlement` is set, and may still be `returned` afterwards;
 * https://increase.com/documentation/wire-transfers: a wire is final when `complete`).
 */
import type { AchTransfer, WireTransfer } from './client.ts';
import { type AchReturn, achReturnOf } from './return-codes.ts';

export type PayoutOutcome =
  | { state: 'PENDING' }
  | { state: 'SETTLED' }
  /** ACH: returned, with the return's Nacha code when Increase gave it; WIRE: reversed. */
  | { state: 'RETURNED'; rail: 'ACH'; achReturn: AchReturn | undefined }
  | { state: 'RETURNED'; rail: 'WIRE' }
  | { state: 'REJECTED'; detail: string };

export function achOutcome(transfer: AchTransfer): PayoutOutcome {
  switch (transfer.status) {
    case 'returned':
      return {
        state: 'RETURNED',
        rail: 'ACH',
        achReturn: transfer.return ? achReturnOf(transfer.return.return_reason_code) : undefined,
      };
    case 'rejected':
      return { state: 'REJECTED', detail: 'Increase rejected the ACH transfer' };
    case 'canceled':
      return { state: 'REJECTED', detail: 'the ACH transfer was canceled' };
    case 'submitted':
      return transfer.settlement ? { state: 'SETTLED' } : { state: 'PENDING' };
    default:
      return { state: 'PENDING' };
  }
}

export function wireOutcome(transfer: WireTransfer): PayoutOutcome {
  switch (transfer.status) {
    case 'complete':
      return { state: 'SETTLED' };
    case 'reversed':
      return { state: 'RETURNED', rail: 'WIRE' };
    case 'rejected':
      return { state: 'REJECTED', detail: 'Increase rejected the wire transfer' };
    case 'canceled':
      return { state: 'REJECTED', detail: 'the wire transfer was canceled' };
    default:
      return { state: 'PENDING' };
  }
}
