/**
 * The PIX rail as the rest of Ponte sees it: register a charge, confirm a received payment, list received
 * payments in a window, refund, send, look up a send. The sandbox simulation implements the parts the
 * sandbox uses (charges it encodes itself, sends it settles at once); a PSP adapter implements all of it
 * over the Banco Central's API Pix and the PSP's own send API. A rail speaks to the outside only: what
 * it learns goes to the handlers the owning modules register; it never touches a transaction itself.
 */

export type ChargeRequest = {
  /** 26–35 letters and digits, derived from the transaction's id: a retry registers the same charge. */
  txid: string;
  /** BRL cents. */
  amount: bigint;
  expiresInSeconds: number;
  /** The customer expected to pay, when Brazilian: name and CPF (11 digits) or CNPJ (14 characters). */
  payer: { name: string; cpf: string } | { name: string; cnpj: string } | null;
};

export type RegisteredCharge = { brCode: string };

export type RefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

export type RefundState = {
  id: string;
  amount: bigint;
  status: RefundStatus;
  reason: string | null;
};

/** A PIX the account received, as the PSP reports it on its own authenticated API. */
export type ReceivedPix = {
  endToEndId: string;
  txid: string | null;
  amount: bigint;
  paidAt: Date;
  refunds: RefundState[];
  /** The PSP's record as it answered it. */
  payload: unknown;
};

export type SendStatus = 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';

/** A PIX the account sent, as the PSP reports it; `returns` are the amounts the receiving bank gave back. */
export type SendState = {
  sendId: string;
  endToEndId: string | null;
  amount: bigint;
  status: SendStatus;
  reason: string | null;
  /** Each part given back, by its `rtrId`; `at` is null when the PSP's record gave no readable instant. */
  returns: { id: string; amount: bigint; at: Date | null }[];
};

export type SendOrder = {
  /** ≤ 35 letters and digits, derived from the payout: a resend is the same payment. */
  sendId: string;
  amount: bigint;
  payee: { key: string; cpf?: string; cnpj?: string; name: string };
  info: string;
};

/** What a send or a refund request came to: taken (its state), refused for good, or not known now. */
export type SendAnswer = { state: SendState } | { refused: string } | { retry: string };
export type RefundAnswer = { state: RefundState } | { refused: string } | { retry: string };
/** A look-up: the PSP's state, the PSP does not have it, or no answer now. */
export type LookUp<T> = { state: T } | { unknown: true } | { retry: string };

/** A window's payments, page after page; `complete` is false when a page could not be read. */
export type Listing<T> = { items: T[]; complete: boolean; calls: number };

/** The PSP could not take the request in time (the seam's error, named here for the PIX rail's callers). */
export { RailUnavailable } from '../fiat-rail.ts';

export type PixRail = {
  registerCharge(charge: ChargeRequest): Promise<RegisteredCharge>;
  withdrawCharge(txid: string): Promise<void>;
  confirmPayment(endToEndId: string): Promise<LookUp<ReceivedPix>>;
  listReceived(from: Date, to: Date): Promise<Listing<ReceivedPix>>;
  refund(endToEndId: string, refundId: string, amount: bigint): Promise<RefundAnswer>;
  lookUpRefund(endToEndId: string, refundId: string): Promise<LookUp<RefundState>>;
  send(order: SendOrder): Promise<SendAnswer>;
  lookUpSend(sendId: string): Promise<LookUp<SendState>>;
  listSent(from: Date, to: Date): Promise<Listing<SendState>>;
  /** Registers the webhook for the account's key (idempotent: a PUT of the same address). */
  registerWebhook(): Promise<void>;
  /** The address the PSP holds for the key's webhook, or null when it holds none. */
  webhook(): Promise<{ webhookUrl: string } | null>;
};

/** 26–35 letters and digits derived from an id (a UUID gives its 32 hex digits). */
export function derivedPixId(id: string): string {
  const id32 = id.replace(/[^A-Za-z0-9]/g, '');
  if (id32.length < 26 || id32.length > 35) throw new Error(`cannot derive a PIX id from "${id}"`);
  return id32;
}
