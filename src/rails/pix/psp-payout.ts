/**
 * Payouts over a PSP rail: an off-ramp's payout is a send (Efí's `PUT /v3/gn/pix/{idEnvio}`), a refund
 * a devolução of the deposit (`PUT /pix/{e2eid}/devolucao/{id}`), each under the key Ponte derived for
 * it, so that a resend is the same payment. A payment tried before (a crash, a timeout, a 5xx) is first
 * looked up, and sent again only when the PSP does not have it: paid at most once. The PSP's answer is
 * mapped to the rail's terms; the PSP's end-to-end id is handed back to be recorded.
 */
import { dictKey, PIX_KEY_TYPES, type PixKeyType } from '../../lib/pix-key.ts';
import type { PayoutRef, PayoutResult, StatusAnswer, SubmitAnswer } from '../fiat-rail.ts';
import type { PayoutOrder, PayoutRail } from './payout-rail.ts';
import type { LookUp, PixRail, RefundState, SendState } from './rail.ts';

/** A send's state in the seam's terms: made, not made (the PSP's reason), or under way. */
export function ofSend(state: SendState): StatusAnswer {
  const e2e = state.endToEndId ? { endToEndId: state.endToEndId } : {};
  if (state.status === 'REALIZADO') return { result: { status: 'COMPLETED' }, ...e2e };
  if (state.status === 'NAO_REALIZADO') {
    return {
      result: { status: 'REJECTED', reason: state.reason ?? 'the PSP did not make the PIX (NAO_REALIZADO)' },
      ...e2e,
    };
  }
  return { pending: true, ...e2e };
}

/** A devolução's state in the seam's terms. */
export function ofRefund(state: RefundState): StatusAnswer {
  if (state.status === 'DEVOLVIDO') return { result: { status: 'COMPLETED' } };
  if (state.status === 'NAO_REALIZADO') {
    return {
      result: {
        status: 'REJECTED',
        reason: state.reason ?? 'the PSP did not make the refund (NAO_REALIZADO)',
      },
    };
  }
  return { pending: true };
}

function asSubmit(answer: StatusAnswer): SubmitAnswer {
  if ('result' in answer) return answer;
  if ('pending' in answer)
    return { accepted: true, ...(answer.endToEndId ? { endToEndId: answer.endToEndId } : {}) };
  if ('retry' in answer) return answer;
  return { retry: 'the PSP does not have the payment' };
}

const refused = (reason: string): SubmitAnswer => ({
  result: { status: 'REJECTED', reason: `the PSP refused it: ${reason}` } satisfies PayoutResult,
});

export function pspPayoutRail(rail: PixRail): PayoutRail {
  async function lookUp(ref: PayoutRef): Promise<StatusAnswer> {
    if (ref.kind === 'REFUND') {
      const found: LookUp<RefundState> = await rail.lookUpRefund(ref.refundOf!, ref.key);
      return 'state' in found ? ofRefund(found.state) : found;
    }
    const found = await rail.lookUpSend(ref.key);
    return 'state' in found ? ofSend(found.state) : found;
  }

  return {
    async submit(order: PayoutOrder, ref: PayoutRef): Promise<SubmitAnswer> {
      if (ref.attempts > 1) {
        // tried before: the PSP may have it already, whatever Ponte heard back
        const known = await lookUp(ref);
        if (!('unknown' in known)) return asSubmit(known);
      }
      if (ref.kind === 'REFUND') {
        const answer = await rail.refund(ref.refundOf!, ref.key, order.amount);
        if ('state' in answer) return asSubmit(ofRefund(answer.state));
        return 'refused' in answer ? refused(answer.refused) : answer;
      }
      const destination = order.destination!;
      const taxId = destination.taxId.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
      // the key as the DICT holds it (CPF/CNPJ bare), not as people read it
      const keyType = destination.keyType as PixKeyType;
      const key = PIX_KEY_TYPES.includes(keyType) ? dictKey(keyType, destination.keyValue) : null;
      if (key === null) {
        return {
          result: { status: 'REJECTED', reason: `the payee's PIX key is not a valid ${keyType} key` },
        };
      }
      const answer = await rail.send({
        sendId: ref.key,
        amount: order.amount,
        payee: {
          key,
          name: destination.name,
          ...(taxId.length === 11 ? { cpf: taxId } : taxId.length === 14 ? { cnpj: taxId } : {}),
        },
        info: 'Ponte',
      });
      if ('state' in answer) return asSubmit(ofSend(answer.state));
      if ('refused' in answer) return refused(answer.refused);
      // no answer, a 5xx or a 429: the PSP may have it; asked before anything is sent again
      const known = await lookUp(ref);
      return 'unknown' in known ? answer : asSubmit(known);
    },
    status: lookUp,
  };
}
