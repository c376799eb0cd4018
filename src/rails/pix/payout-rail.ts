/**
 * How a payment Ponte sends goes out over PIX: an off-ramp's payout or the refund of a deposit, given to
 * the rail of its environment (the sandbox simulation settles at once, a PSP answers now or later). The
 * rail answers in the fiat-rail seam's terms (rails/fiat-rail.ts); rails/pix/fiat.ts puts these behind it.
 */
import type { PayoutKind, PayoutRef, StatusAnswer, SubmitAnswer } from '../fiat-rail.ts';

/** A PIX destination: the receiving key and its holder. */
export type PixDestination = { keyType: string; keyValue: string; name: string; taxId: string };

/** What the rail needs to send one payment. */
export type PayoutOrder = {
  endToEndId: string;
  kind: PayoutKind;
  /** BRL cents. */
  amount: bigint;
  /** OFF_RAMP: the receiving PIX key and its holder. */
  destination: PixDestination | null;
  /** REFUND: the deposit sent back. */
  refundOf: string | null;
  /** The transaction's own source amount, as the partner sent it. */
  source: { currency: string; amount: bigint; scale: number };
};

export type PayoutRail = {
  submit(order: PayoutOrder, ref: PayoutRef): Promise<SubmitAnswer>;
  /** Asks for the result of a payment the rail accepted and has not reported on (rails that report later). */
  status?(ref: PayoutRef): Promise<StatusAnswer>;
};
