/**
 * A USD payout sent at most once. The idempotency key is derived from the payout's own id, so whatever
 * happens between the call and its answer (a timeout, a lost connection, the process killed), asking again
 * never pays twice: Increase answers a repeated key with the transfer it already made
 * (https://increase.com/documentation/idempotency-keys). After a restart, `findPayout` tells whether the
 * unanswered call reached Increase at all, before anything is sent again.
 */
import { APIConnectionError, APIError } from 'increase';
import type { AchPayout, AchTransfer, IncreaseBank, WirePayout, WireTransfer } from './client.ts';
import { achOutcome, type PayoutOutcome, wireOutcome } from './outcomes.ts';

export type UsdPayoutRail = 'ACH' | 'WIRE';

/** The idempotency key of a payout: one per payout, on every attempt. */
export const payoutIdempotencyKey = (payoutId: string) => `ponte-payout-${payoutId}`;

export type SentPayout = { bankTransferId: string; outcome: PayoutOutcome };

/**
 * SENT: Increase holds the transfer; REFUSED: Increase refused the request itself (nothing was created:
 * a 4xx other than a repeated key); UNKNOWN: no answer (5xx, timeout, connection), so whether it exists is
 * learnt from `findPayout`, never by sending under another key.
 */
export type SendResult =
  | { kind: 'SENT'; payout: SentPayout }
  | { kind: 'REFUSED'; detail: string }
  | { kind: 'UNKNOWN'; detail: string };

type PayoutOrder =
  | { rail: 'ACH'; payoutId: string; ach: Omit<AchPayout, 'idempotencyKey'> }
  | { rail: 'WIRE'; payoutId: string; wire: Omit<WirePayout, 'idempotencyKey'> };

const sentAch = (transfer: AchTransfer): SentPayout => ({
  bankTransferId: transfer.id,
  outcome: achOutcome(transfer),
});
const sentWire = (transfer: WireTransfer): SentPayout => ({
  bankTransferId: transfer.id,
  outcome: wireOutcome(transfer),
});

export async function sendPayout(bank: IncreaseBank, order: PayoutOrder): Promise<SendResult> {
  const idempotencyKey = payoutIdempotencyKey(order.payoutId);
  try {
    if (order.rail === 'ACH')
      return { kind: 'SENT', payout: sentAch(await bank.payAch({ ...order.ach, idempotencyKey })) };
    return { kind: 'SENT', payout: sentWire(await bank.payWire({ ...order.wire, idempotencyKey })) };
  } catch (error) {
    if (error instanceof APIConnectionError) return { kind: 'UNKNOWN', detail: error.message };
    if (
      error instanceof APIError &&
      error.status !== undefined &&
      error.status >= 400 &&
      error.status < 500
    ) {
      // a repeated key with other terms (409) names a transfer that exists: it is found, not refused
      if (error.status === 409 || error.status === 429) return { kind: 'UNKNOWN', detail: error.message };
      return { kind: 'REFUSED', detail: error.message };
    }
    if (error instanceof APIError) return { kind: 'UNKNOWN', detail: error.message };
    throw error;
  }
}

/** The transfer a payout's earlier call created, with where it stands; undefined if none reached Increase. */
export async function findPayout(
  bank: IncreaseBank,
  rail: UsdPayoutRail,
  payoutId: string,
): Promise<SentPayout | undefined> {
  const key = payoutIdempotencyKey(payoutId);
  if (rail === 'ACH') {
    const transfer = await bank.achTransferByIdempotencyKey(key);
    return transfer && sentAch(transfer);
  }
  const transfer = await bank.wireTransferByIdempotencyKey(key);
  return transfer && sentWire(transfer);
}
