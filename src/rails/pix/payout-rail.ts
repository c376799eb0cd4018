/**
 * How a payment Ponte sends goes out over PIX: an off-ramp's payout or the refund of a deposit, given to
 * the rail of its environment (the sandbox simulation settles at once, a PSP answers now or later). The
 * rail answers in these terms; the off-ramp applies what it answers.
 */

export type PayoutKind = 'OFF_RAMP' | 'REFUND';

export type PayoutResult =
  | { status: 'COMPLETED' }
  | { status: 'REJECTED'; reason: string }
  | { status: 'RETURNED'; reason: string };

/** What the rail needs to send one payment. */
export type PayoutOrder = {
  endToEndId: string;
  kind: PayoutKind;
  /** BRL cents. */
  amount: bigint;
  /** OFF_RAMP: the receiving PIX key and its holder. */
  destination: { keyType: string; keyValue: string; name: string; taxId: string } | null;
  /** REFUND: the deposit sent back. */
  refundOf: string | null;
  /** The transaction's own source amount, as the partner sent it. */
  source: { currency: string; amount: bigint; scale: number };
};

/**
 * A rail either settles the payment at once (sandbox), accepts it for a later result, or cannot take it
 * now; a PSP that assigns the PIX's end-to-end id says which.
 */
export type SubmitAnswer =
  | { result: PayoutResult; endToEndId?: string }
  | { accepted: true; endToEndId?: string }
  | { retry: string };

/** What a rail says of a payment it accepted: settled, still under way, never heard of, or no answer now. */
export type StatusAnswer =
  | { result: PayoutResult; endToEndId?: string }
  | { pending: true; endToEndId?: string }
  | { unknown: true }
  | { retry: string };

/** A payment the rail was given: its key (end-to-end id, or the PSP send/refund id) and what it is. */
export type PayoutRef = { key: string; kind: PayoutKind; refundOf: string | null; attempts: number };

export type PayoutRail = {
  submit(order: PayoutOrder, ref: PayoutRef): Promise<SubmitAnswer>;
  /** Asks for the result of a payment the rail accepted and has not reported on (rails that report later). */
  status?(ref: PayoutRef): Promise<StatusAnswer>;
};
