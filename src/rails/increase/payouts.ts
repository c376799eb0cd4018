/**
 * A USD payout sent at most once. The idempotency key is derived from the payout's own id, so whatever
 * happens between the call and its answer (a timeout, a lost connection, the process killed), asking again
 * never pays twice: Increase answers a repeated key with the transfer it already made
 * (https://increase.com/documentation/idempotency-keys). After a restart, `findPayout` tells whether the
 * unanswered call reached Increase at all, before anything is sent again.
 */
import { APIError } from 'increase';
import type { AchPayout, AchTransfer, IncreaseBank, WirePayout, WireTransfer } from './client.ts';
import { achOutcome, type PayoutOutcome, wireOutcome } from './outcomes.ts';
import { type ReadBackFailure, readBack, unanswered } from './read-back.ts';

export type UsdPayoutRail = 'ACH' | 'WIRE';

/** The idempotency key of a payout: one per payout (an off-ramp's id), on every attempt. */
export const payoutIdempotencyKey = (payoutId: string) => `ponte-payout-${payoutId}`;

/** Whether a transfer at Increase is one of Ponte's payouts, by the key it was created under. */
export const isPayoutKey = (key: string | null | undefined): key is string =>
  key?.startsWith('ponte-payout-') ?? false;

export type SentPayout = { bankTransferId: string; key: string | null; outcome: PayoutOutcome };

/**
 * SENT: Increase holds the transfer; REFUSED: Increase refused the request itself (nothing was created:
 * a 4xx other than a repeated key, a refused API key or permission, a timeout or a throttle); UNKNOWN: no
 * answer (5xx, timeout, connection), so whether it exists is learnt from `findPayout`, never by sending
 * under another key.
 */
export type SendResult =
  | { kind: 'SENT'; payout: SentPayout }
  | { kind: 'REFUSED'; detail: string }
  | { kind: 'UNKNOWN'; detail: string };

/** A payout to send under its idempotency key (`payoutIdempotencyKey`). */
export type UsdPayoutOrder =
  | { rail: 'ACH'; key: string; ach: Omit<AchPayout, 'idempotencyKey'> }
  | { rail: 'WIRE'; key: string; wire: Omit<WirePayout, 'idempotencyKey'> };

export const sentAch = (transfer: AchTransfer): SentPayout => ({
  bankTransferId: transfer.id,
  key: transfer.idempotency_key,
  outcome: achOutcome(transfer),
});
export const sentWire = (transfer: WireTransfer): SentPayout => ({
  bankTransferId: transfer.id,
  key: transfer.idempotency_key,
  outcome: wireOutcome(transfer),
});

/**
 * 4xx answers that say nothing of the transfer, besides those `unanswered` names: a repeated key with other
 * terms (409) names a transfer that exists (it is found, not refused); an API key refused (401) or short of
 * a permission (403) is asked again once mended (https://increase.com/documentation/api#errors).
 */
const NOT_ABOUT_THE_TRANSFER = new Set([401, 403, 409]);

export async function sendPayout(bank: IncreaseBank, order: UsdPayoutOrder): Promise<SendResult> {
  const idempotencyKey = order.key;
  try {
    if (order.rail === 'ACH')
      return { kind: 'SENT', payout: sentAch(await bank.payAch({ ...order.ach, idempotencyKey })) };
    return { kind: 'SENT', payout: sentWire(await bank.payWire({ ...order.wire, idempotencyKey })) };
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const { status } = error;
    const clientError = status !== undefined && status >= 400 && status < 500;
    if (clientError && !unanswered(error) && !NOT_ABOUT_THE_TRANSFER.has(status)) {
      return { kind: 'REFUSED', detail: error.message };
    }
    return { kind: 'UNKNOWN', detail: error.message };
  }
}

/** The transfer a payout's earlier call created, with where it stands; undefined if none reached Increase. */
export async function findPayout(
  bank: IncreaseBank,
  rail: UsdPayoutRail,
  key: string,
): Promise<SentPayout | undefined> {
  if (rail === 'ACH') {
    const transfer = await bank.achTransferByIdempotencyKey(key);
    return transfer && sentAch(transfer);
  }
  const transfer = await bank.wireTransferByIdempotencyKey(key);
  return transfer && sentWire(transfer);
}

/** A payout of Ponte's a webhook's event names, read back: its key and where it stands. */
/** A failed read (read-back.ts): look again later (the workers ask in any case). */
export type PayoutLookUp =
  | { kind: 'PAYOUT'; key: string; payout: SentPayout }
  | { kind: 'IGNORED' }
  | ReadBackFailure;

const OUTBOUND_TYPES = new Set(['ach_transfer', 'wire_transfer']);

/**
 * Reads the ACH or wire transfer an event names (https://increase.com/documentation/webhooks: the event
 * only names its object); a transfer Ponte did not make as a payout, or another kind of event, is ignored.
 */
export async function lookUpPayout(
  bank: IncreaseBank,
  event: { associated_object_type: string; associated_object_id: string },
): Promise<PayoutLookUp> {
  if (!OUTBOUND_TYPES.has(event.associated_object_type)) return { kind: 'IGNORED' };
  const id = event.associated_object_id;
  const read = await readBack(async () =>
    event.associated_object_type === 'ach_transfer'
      ? sentAch(await bank.achTransfer(id))
      : sentWire(await bank.wireTransfer(id)),
  );
  if (read.kind !== 'READ') return read;
  const transfer = read.value;
  return transfer.key && isPayoutKey(transfer.key)
    ? { kind: 'PAYOUT', key: transfer.key, payout: transfer }
    : { kind: 'IGNORED' };
}

/**
 * Ponte's payouts the receiving bank gave back since `after` (ACH returns, wire reversals): what a lost
 * webhook would otherwise leave unknown once a payout was settled, as the sweep finds it.
 */
export async function* returnedPayoutsSince(
  bank: IncreaseBank,
  after: Date,
): AsyncGenerator<{ key: string; payout: SentPayout }> {
  for await (const transfer of bank.achTransfersSince(after, 'returned')) {
    if (isPayoutKey(transfer.idempotency_key))
      yield { key: transfer.idempotency_key, payout: sentAch(transfer) };
  }
  for await (const transfer of bank.wireTransfersSince(after, 'reversed')) {
    if (isPayoutKey(transfer.idempotency_key))
      yield { key: transfer.idempotency_key, payout: sentWire(transfer) };
  }
}
