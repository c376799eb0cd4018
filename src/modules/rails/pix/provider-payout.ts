/**
 * The production PIX payout rail: sends each payment to the PIX provider's payout API as a signed
 * request (`x-pix-signature: sha256=<HMAC-SHA256 of the body>` with the provider secret), keyed by
 * the payment's end-to-end id so that a resubmission after a crash is recognised and paid once. The
 * provider answers at once whether it took the payment; its result arrives later as a signed
 * notification on `POST /rails/pix/notifications`.
 * - 2xx, or 409 (it already has this end-to-end id): accepted, the result will follow;
 * - any other 4xx: the provider refused the payment: REJECTED, with its status in the reason;
 * - 5xx, 408, 429, a timeout or no answer: tried again later with the same end-to-end id.
 *
 * A payment accepted and not reported on is asked about with a signed `GET payouts/{endToEndId}` (the
 * signature is over the end-to-end id): 200 with `{ status, reason? }` — COMPLETED, REJECTED or RETURNED
 * settle it as the notification would have, any other status means still under way; 404 means the
 * provider does not have it, so it is sent again under the same end-to-end id.
 */
import { formatAmount } from '../../../core/money.ts';
import { payoutResultOf, readPayoutResult } from './notification-items.ts';
import type { PayoutOrder, PayoutRail, StatusAnswer, SubmitAnswer } from './payout.ts';
import { SIGNATURE_HEADER, signPixNotification } from './signature.ts';

export type ProviderPayoutOptions = {
  url: URL;
  secret: string;
  timeoutMs: number;
  fetch?: typeof fetch;
};

export function payoutRequestBody(order: PayoutOrder): string {
  return JSON.stringify({
    endToEndId: order.endToEndId,
    valor: formatAmount(order.amount),
    ...(order.destination
      ? {
          chave: { tipo: order.destination.keyType, valor: order.destination.keyValue },
          favorecido: { nome: order.destination.name, documento: order.destination.taxId },
        }
      : {}),
    ...(order.refundOf ? { devolucaoDe: order.refundOf } : {}),
  });
}

export function providerPayoutRail(options: ProviderPayoutOptions): PayoutRail {
  const send = options.fetch ?? fetch;
  const base = options.url.href.endsWith('/') ? options.url : new URL(`${options.url.href}/`);
  const target = new URL('payouts', base);
  return {
    async submit(order: PayoutOrder): Promise<SubmitAnswer> {
      const body = payoutRequestBody(order);
      let status: number;
      try {
        const response = await send(target, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'idempotency-key': order.endToEndId,
            [SIGNATURE_HEADER]: signPixNotification(options.secret, Buffer.from(body)),
          },
          body,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        status = response.status;
        await response.body?.cancel();
      } catch (error) {
        return { retry: `the provider did not answer: ${(error as Error).message}` };
      }
      if ((status >= 200 && status < 300) || status === 409) return { accepted: true };
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        return { result: { status: 'REJECTED', reason: `the PIX provider refused it (HTTP ${status})` } };
      }
      return { retry: `the provider answered HTTP ${status}` };
    },

    async status(endToEndId: string): Promise<StatusAnswer> {
      let response: Response;
      let text: string;
      try {
        response = await send(new URL(`payouts/${encodeURIComponent(endToEndId)}`, base), {
          method: 'GET',
          headers: { [SIGNATURE_HEADER]: signPixNotification(options.secret, Buffer.from(endToEndId)) },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        return { retry: `the provider did not answer: ${(error as Error).message}` };
      }
      if (response.status === 404) return { unknown: true };
      if (response.status !== 200) return { retry: `the provider answered HTTP ${response.status}` };
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return { retry: 'the provider answered a body that is not JSON' };
      }
      const read = readPayoutResult({ ...(body as object), endToEndId });
      if (typeof read !== 'string') return { result: payoutResultOf(read) };
      return { pending: true };
    },
  };
}
