/**
 * The fiat-rail seam: what a flow asks of the rail that moves its fiat, whichever rail that is. An
 * on-ramp collects (the customer is given deposit instructions), an off-ramp pays out to a destination,
 * a deposit that cannot be converted is given back; what the provider says is looked up (a notification
 * is a hint, confirmed here) and swept (reconciliation: every movement of a window, each applied once).
 * PIX is the first rail (rails/pix: a sandbox simulation and a PSP over the Banco Central's API Pix);
 * a rail is one more implementation of this type and one more intake module, never an edit in a flow.
 *
 * A rail is generic over the shapes that are its own: the deposit instructions it gives (a PIX BR Code;
 * an account and routing number) and the destination it pays (a PIX key and its holder; an account over
 * ACH or wire).
 */

/** The provider could not take the request in time; nothing was registered that Ponte relies on. */
export class RailUnavailable extends Error {}

/** The customer expected to pay, as a flow knows them; the rail names them to its provider if it can. */
export type Payer = {
  name: string;
  /** ISO 3166 code, as the customer was registered. */
  country: string;
  type: 'INDIVIDUAL' | 'BUSINESS';
  taxId: string;
};

/** A collection to open for a transaction: a charge the customer pays, an account number they send to. */
export type CollectRequest = {
  /** The transaction's id: a provider's collection is registered under a reference derived from it. */
  transactionId: string;
  /** Minor units of the rail's currency. */
  amount: bigint;
  expiresInSeconds: number;
  /** Who is expected to pay; null when the flow does not know. */
  payer: Payer | null;
};

/** What a collection came to: the rail's reference for matching deposits, and what the customer is shown. */
export type Collection<Instructions> = { reference: string; instructions: Instructions };

/** What a flow sends: an off-ramp's payout, or the refund of a deposit (given back to its payer). */
export type PayoutKind = 'OFF_RAMP' | 'REFUND';

/**
 * How a payment Ponte sent ended: made, refused (nothing was paid; `reason` in the provider's words), or
 * made and then given back by the receiving institution (a PIX devolução; an ACH return and its code).
 */
export type PayoutResult =
  | { status: 'COMPLETED' }
  | { status: 'REJECTED'; reason: string }
  | {
      status: 'RETURNED';
      reason: string;
      /** The receiving side's code for it, when the rail has codes (an ACH return's Nacha code, R01…). */
      code?: string;
    };

/**
 * A payment the rail was given: its key (derived from the transaction, so a resend is the same payment),
 * what it is, what it gives back (a refund: the deposit's reference) and how often it was tried.
 */
export type PayoutRef = {
  key: string;
  kind: PayoutKind;
  refundOf: string | null;
  attempts: number;
  /** The way it was sent, where a provider has several (a US bank: ACH or wire). */
  method?: 'ACH' | 'WIRE';
};

/** An off-ramp's payout: the amount to a destination, with the transaction's own source amount. */
export type PayoutOrder<Destination> = {
  /** Minor units of the rail's currency. */
  amount: bigint;
  destination: Destination;
  /** The transaction's source amount, as the partner sent it. */
  source: { currency: string; amount: bigint; scale: number };
  /** What the receiver is shown with the payment (the off-ramp's memo), when the rail carries text. */
  memo?: string | null;
};

/** A deposit given back to its payer: `of` is the deposit's reference at the rail (a PIX end-to-end id). */
export type GiveBackOrder = { amount: bigint; of: string };

/**
 * What a payment request came to: settled at once (a result: made, or refused with its reason), taken
 * for a later result, or not known now (nothing is decided; asked again). A provider that assigns the
 * payment's own id (the PIX end-to-end id) hands it back to be recorded.
 */
export type SubmitAnswer =
  | { result: PayoutResult; endToEndId?: string }
  | { accepted: true; endToEndId?: string }
  | { retry: string };

/** What the provider says now of a payment: settled, still under way, never heard of, or no answer. */
export type StatusAnswer =
  | { result: PayoutResult; endToEndId?: string }
  | { pending: true; endToEndId?: string }
  | { unknown: true }
  | { retry: string };

/** Money the account received, as the provider reports it. */
export type ReceivedFunds = {
  /** The provider's id of the payment (a PIX end-to-end id), unique: what applies it once. */
  reference: string;
  /** The collection it pays (a charge's txid), or null when it names none. */
  collection: string | null;
  amount: bigint;
  at: Date;
  /** What Ponte asked to give back of it (by the give-back's key), as the provider reports each now. */
  givenBack: { key: string; state: StatusAnswer }[];
  /** The provider's record as it answered it. */
  payload: unknown;
};

/** A payment Ponte sent, as the provider reports it, with each part the receiving side gave back. */
export type SentFunds = {
  /** The key Ponte gave the payment (PayoutRef.key). */
  key: string;
  amount: bigint;
  state: StatusAnswer;
  /**
   * Each part given back by its id (a PIX return's rtrId); `at` is null when the provider's record gave
   * no readable instant; `reason` the provider's words or code for it, when it gives one (an ACH return
   * code such as R03).
   */
  returns: { id: string; amount: bigint; at: Date | null; reason?: string }[];
};

/** Everything the provider moved in a window; `complete` is false when part of it could not be read. */
export type Movements = { received: ReceivedFunds[]; sent: SentFunds[]; complete: boolean; calls: number };

/** What a flow needs of a rail to pay out only (a rail whose collections are standing accounts). */
export type PayoutRail<Destination> = Pick<
  FiatRail<unknown, Destination>,
  'currency' | 'payOut' | 'reportsLater' | 'lookUp'
>;

export type FiatRail<Instructions, Destination> = {
  /** The currency the rail moves (ISO 4217). */
  currency: string;
  /**
   * Whether `collect` asks a provider: then a flow asks before any database work, with no connection
   * held; a collection the rail makes itself is opened in the creation's own transaction.
   */
  collectsRemotely: boolean;
  collect(request: CollectRequest): Promise<Collection<Instructions>>;
  /** Closes a collection nobody will pay (idempotent); a payment that still arrives is held for refund. */
  cancelCollection(reference: string): Promise<void>;
  /** Pays out; idempotent by `ref.key`: a payment tried before is looked up before it is sent again. */
  payOut(order: PayoutOrder<Destination>, ref: PayoutRef): Promise<SubmitAnswer>;
  /** Gives a received deposit back to its payer (a PIX devolução; an ACH return), idempotent by `ref.key`. */
  giveBack(order: GiveBackOrder, ref: PayoutRef): Promise<SubmitAnswer>;
  /** Whether the rail reports results after it answers (a provider) rather than in its answer. */
  reportsLater: boolean;
  lookUp(ref: PayoutRef): Promise<StatusAnswer>;
  sweep(window: { from: Date; to: Date }): Promise<Movements>;
};
