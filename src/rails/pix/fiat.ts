/**
 * PIX behind the fiat-rail seam (rails/fiat-rail.ts): BRL collected with a BR Code, paid out to a PIX key,
 * given back with a devolução. Two implementations over the rail's own parts: the sandbox simulation
 * (a BR Code it encodes itself, payments settled at once: sandbox-payout.ts) and a PSP (a charge
 * registered over the Banco Central's API Pix, sends and devoluções over psp-payout.ts, listings for the
 * sweep).
 */
import { buildPixBrCode, SANDBOX_PIX_KEY } from '../../lib/pix-brcode.ts';
import { randomBase62 } from '../../lib/secrets.ts';
import type { CollectRequest, FiatRail, Payer, ReceivedFunds, SentFunds } from '../fiat-rail.ts';
import type { PayoutRail, PixDestination } from './payout-rail.ts';
import { ofRefund, ofSend, pspPayoutRail } from './psp-payout.ts';
import { type ChargeRequest, derivedPixId, type PixRail, type ReceivedPix, type SendState } from './rail.ts';
import { sandboxPayoutRail } from './sandbox-payout.ts';

/** What a PIX collection shows the customer: the BR Code (copia e cola, or a QR code) to pay. */
export type PixInstructions = { brCode: string };

export type BrlRail = FiatRail<PixInstructions, PixDestination>;

/** The account the sandbox's local BR Codes name (README: PONTE_PIX_KEY, PONTE_PIX_MERCHANT_*). */
export type SandboxAccount = { pixKey: string | undefined; merchantName: string; merchantCity: string };

/** The sandbox's txid: 25 letters and digits, the most a BR Code's field 62-05 holds. */
const SANDBOX_TXID_LENGTH = 25;

/**
 * The payer a charge names (`devedor`): a Brazilian customer's name and CPF (an individual's 11 digits)
 * or CNPJ (a business's 14 characters); anyone else is not named.
 */
export function chargePayer(payer: Payer | null): ChargeRequest['payer'] {
  if (!payer || (payer.country !== 'BRA' && payer.country !== 'BR')) return null;
  const taxId = payer.taxId.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  const name = payer.name.trim();
  if (payer.type === 'INDIVIDUAL' && /^\d{11}$/.test(taxId)) return { name, cpf: taxId };
  if (payer.type === 'BUSINESS' && /^[0-9A-Z]{14}$/.test(taxId)) return { name, cnpj: taxId };
  return null;
}

/** Payouts and devoluções in the seam's terms, over a PIX payout rail (its `submit` looked up per call). */
function overPayouts(payouts: PayoutRail): Pick<BrlRail, 'payOut' | 'giveBack' | 'reportsLater' | 'lookUp'> {
  return {
    payOut: (order, ref) =>
      payouts.submit(
        {
          endToEndId: ref.key,
          kind: 'OFF_RAMP',
          amount: order.amount,
          destination: order.destination,
          refundOf: null,
          source: order.source,
        },
        ref,
      ),
    giveBack: (order, ref) =>
      payouts.submit(
        {
          endToEndId: ref.key,
          kind: 'REFUND',
          amount: order.amount,
          destination: null,
          refundOf: order.of,
          source: { currency: 'BRL', amount: order.amount, scale: 2 },
        },
        ref,
      ),
    reportsLater: payouts.status !== undefined,
    lookUp: async (ref) => (payouts.status ? payouts.status(ref) : { unknown: true }),
  };
}

/**
 * The sandbox simulation: a BR Code encoded locally (registered nowhere, so nothing to cancel), every
 * payment settled in its answer (a sourceAmount ending in .13 refused: sandbox-payout.ts), so a look-up
 * finds nothing to report and a sweep nothing the flows did not already apply.
 */
export function sandboxPixRail(account: SandboxAccount): BrlRail {
  return {
    currency: 'BRL',
    collectsRemotely: false,
    async collect(request: CollectRequest) {
      const txid = randomBase62(SANDBOX_TXID_LENGTH);
      const brCode = buildPixBrCode({
        pixKey: account.pixKey ?? SANDBOX_PIX_KEY,
        merchantName: account.merchantName,
        merchantCity: account.merchantCity,
        amount: request.amount,
        txid,
      });
      return { reference: txid, instructions: { brCode } };
    },
    async cancelCollection() {},
    ...overPayouts(sandboxPayoutRail),
    sweep: async () => ({ received: [], sent: [], complete: true, calls: 0 }),
  };
}

/** A PIX the account received, in the seam's terms. */
export function receivedFunds(pix: ReceivedPix): ReceivedFunds {
  return {
    reference: pix.endToEndId,
    collection: pix.txid,
    amount: pix.amount,
    at: pix.paidAt,
    givenBack: pix.refunds.map((refund) => ({ key: refund.id, state: ofRefund(refund) })),
    payload: pix.payload,
  };
}

/** A send of Ponte's, in the seam's terms: its state and the parts the receiving bank gave back. */
export function sentFunds(state: SendState): SentFunds {
  return { key: state.sendId, amount: state.amount, state: ofSend(state), returns: state.returns };
}

/**
 * A PSP: the charge registered (`PUT /cob/{txid}`, the txid derived from the transaction's id, so a retry
 * is the same charge) and withdrawn (`PATCH /cob/{txid}`); payouts as psp-payout.ts sends them; the sweep
 * lists what the PSP received (`GET /pix`) and sent (Efí's `GET /v2/gn/pix/enviados`) in the window.
 */
export function pspPixRail(rail: PixRail): BrlRail {
  return {
    currency: 'BRL',
    collectsRemotely: true,
    async collect(request: CollectRequest) {
      const txid = derivedPixId(request.transactionId);
      const { brCode } = await rail.registerCharge({
        txid,
        amount: request.amount,
        expiresInSeconds: request.expiresInSeconds,
        payer: chargePayer(request.payer),
      });
      return { reference: txid, instructions: { brCode } };
    },
    cancelCollection: (reference) => rail.withdrawCharge(reference),
    ...overPayouts(pspPayoutRail(rail)),
    async sweep({ from, to }) {
      const received = await rail.listReceived(from, to);
      const sent = await rail.listSent(from, to);
      return {
        received: received.items.map(receivedFunds),
        sent: sent.items.map(sentFunds),
        complete: received.complete && sent.complete,
        calls: received.calls + sent.calls,
      };
    },
  };
}
