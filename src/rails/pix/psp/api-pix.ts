/**
 * The Banco Central's standard API Pix (release 2.9.0), the calls Ponte makes: immediate charges
 * (`/cob/{txid}`), received PIX (`/pix/{e2eid}`, `/pix?inicio&fim`), refunds
 * (`/pix/{e2eid}/devolucao/{id}`) and the webhook of a key (`/webhook/{chave}`). Paths are relative to
 * `prefix` (Efí: `/v2`). Answers are read defensively: a PSP that answers garbage is "no answer".
 */
import { formatAmount } from '../../../core/money.ts';
import type {
  ChargeRequest,
  Listing,
  LookUp,
  ReceivedPix,
  RefundAnswer,
  RefundState,
  RefundStatus,
} from '../rail.ts';
import { cents, notFound, reasonOf, refusedForGood } from './answers.ts';
import { type PspHttpClient, PspUnreachable } from './http-client.ts';
import { listEveryPage, type ReportUnreadable } from './paged-list.ts';

const E2E = /^[A-Za-z0-9]{32}$/;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** An RFC 3339 instant within the years 0001-9999 (UTC) that a database can hold, or null. */
export function instant(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = RFC3339.exec(value);
  if (!m || Number(m[6]) > 59) return null;
  const at = new Date(value);
  const year = at.getUTCFullYear();
  return Number.isNaN(at.getTime()) || year < 1 || year > 9999 ? null : at;
}

function readRefund(value: unknown): RefundState | null {
  const v = value as { id?: unknown; valor?: unknown; status?: unknown; motivo?: unknown } | null;
  const amount = cents(v?.valor);
  if (typeof v?.id !== 'string' || amount === null) return null;
  if (v.status !== 'EM_PROCESSAMENTO' && v.status !== 'DEVOLVIDO' && v.status !== 'NAO_REALIZADO')
    return null;
  return {
    id: v.id,
    amount,
    status: v.status as RefundStatus,
    reason: typeof v.motivo === 'string' ? v.motivo.slice(0, 500) : null,
  };
}

/** A PSP's `Pix` object, or null when it is not one. */
export function readPix(value: unknown): ReceivedPix | null {
  const v = value as {
    endToEndId?: unknown;
    txid?: unknown;
    valor?: unknown;
    horario?: unknown;
    devolucoes?: unknown;
  } | null;
  const amount = cents(v?.valor);
  if (typeof v?.endToEndId !== 'string' || !E2E.test(v.endToEndId) || amount === null || amount <= 0n) {
    return null;
  }
  const paidAt = instant(v.horario);
  if (!paidAt) return null;
  const txid = typeof v.txid === 'string' && /^[A-Za-z0-9]{1,35}$/.test(v.txid) ? v.txid : null;
  const refunds = Array.isArray(v.devolucoes) ? v.devolucoes.map(readRefund) : [];
  if (refunds.some((r) => r === null)) return null;
  return {
    endToEndId: v.endToEndId,
    txid,
    amount,
    paidAt,
    refunds: refunds as RefundState[],
    payload: value,
  };
}

function debtor(payer: NonNullable<ChargeRequest['payer']>) {
  const nome = payer.name.slice(0, 200);
  return 'cpf' in payer ? { nome, cpf: payer.cpf } : { nome, cnpj: payer.cnpj };
}

/**
 * `payments` carries the calls that move money (refunds), paced per key; every other call goes on `http`.
 * A listed item that cannot be read is handed to `report`.
 */
export function createApiPix(
  http: PspHttpClient,
  prefix: string,
  payments: PspHttpClient = http,
  report: ReportUnreadable = () => {},
) {
  async function putCob(
    charge: ChargeRequest,
    key: string,
  ): Promise<{ brCode: string } | { refused: string } | { retry: string }> {
    const answer = await http.call({
      method: 'PUT',
      path: `${prefix}/cob/${charge.txid}`,
      route: 'PUT /cob/{txid}',
      body: {
        calendario: { expiracao: charge.expiresInSeconds },
        ...(charge.payer ? { devedor: debtor(charge.payer) } : {}),
        valor: { original: formatAmount(charge.amount) },
        chave: key,
      },
    });
    const body = answer.body as { pixCopiaECola?: unknown; txid?: unknown } | null;
    if (answer.status === 200 || answer.status === 201) {
      if (
        typeof body?.pixCopiaECola === 'string' &&
        body.pixCopiaECola.length > 0 &&
        body.txid === charge.txid
      ) {
        return { brCode: body.pixCopiaECola };
      }
      return { retry: 'the PSP answered the charge without its pixCopiaECola' };
    }
    if (refusedForGood(answer.status)) return { refused: reasonOf(answer.body, answer.status) };
    return { retry: reasonOf(answer.body, answer.status) };
  }

  async function withdrawCob(txid: string): Promise<void> {
    const answer = await http.call({
      method: 'PATCH',
      path: `${prefix}/cob/${txid}`,
      route: 'PATCH /cob/{txid}',
      body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    });
    // a charge already paid, withdrawn or never registered is answered 4xx: nothing left to withdraw
    if (answer.status >= 500 || answer.status === 429 || answer.status === 401) {
      throw new PspUnreachable(reasonOf(answer.body, answer.status));
    }
  }

  async function getPix(e2eid: string): Promise<LookUp<ReceivedPix>> {
    if (!E2E.test(e2eid)) return { unknown: true };
    const answer = await http.call({
      method: 'GET',
      path: `${prefix}/pix/${e2eid}`,
      route: 'GET /pix/{e2eid}',
    });
    if (notFound(answer)) return { unknown: true };
    if (answer.status !== 200) return { retry: reasonOf(answer.body, answer.status) };
    const pix = readPix(answer.body);
    if (!pix || pix.endToEndId !== e2eid) return { retry: 'the PSP answered something that is not this PIX' };
    return { state: pix };
  }

  async function listPix(from: Date, to: Date): Promise<Listing<ReceivedPix>> {
    return listEveryPage(
      http,
      { path: `${prefix}/pix`, route: 'GET /pix', from, to },
      (item) => readPix(item) ?? 'not a received PIX (endToEndId, valor, horario and its refunds)',
      report,
    );
  }

  /**
   * Asks for a refund: `{valor}` alone, the only field Efí documents for `PUT /v2/pix/{e2eId}/devolucao/{id}`
   * (dev.efipay.com.br/docs/api-pix/gestao-de-pix; `PixDevolutionBodySchema` of sdk-node-apis-efi).
   */
  async function putDevolucao(e2eid: string, id: string, amount: bigint): Promise<RefundAnswer> {
    const answer = await payments.call({
      method: 'PUT',
      path: `${prefix}/pix/${e2eid}/devolucao/${id}`,
      route: 'PUT /pix/{e2eid}/devolucao/{id}',
      body: { valor: formatAmount(amount) },
    });
    if (answer.status === 200 || answer.status === 201) {
      const state = readRefund(answer.body);
      return state ? { state } : { retry: 'the PSP answered the refund with something that is not one' };
    }
    if (refusedForGood(answer.status)) return { refused: reasonOf(answer.body, answer.status) };
    return { retry: reasonOf(answer.body, answer.status) };
  }

  async function getDevolucao(e2eid: string, id: string): Promise<LookUp<RefundState>> {
    const answer = await http.call({
      method: 'GET',
      path: `${prefix}/pix/${e2eid}/devolucao/${id}`,
      route: 'GET /pix/{e2eid}/devolucao/{id}',
    });
    if (notFound(answer)) return { unknown: true };
    if (answer.status !== 200) return { retry: reasonOf(answer.body, answer.status) };
    const state = readRefund(answer.body);
    return state && state.id === id
      ? { state }
      : { retry: 'the PSP answered something that is not this refund' };
  }

  async function putWebhook(key: string, webhookUrl: string): Promise<void> {
    const answer = await http.call({
      method: 'PUT',
      path: `${prefix}/webhook/${encodeURIComponent(key)}`,
      route: 'PUT /webhook/{chave}',
      body: { webhookUrl },
    });
    if (answer.status < 200 || answer.status >= 300) {
      throw new PspUnreachable(
        `the PSP did not register the webhook: ${reasonOf(answer.body, answer.status)}`,
      );
    }
  }

  /** The address the PSP holds for the key's webhook, or null when it holds none. */
  async function getWebhook(key: string): Promise<{ webhookUrl: string } | null> {
    const answer = await http.call({
      method: 'GET',
      path: `${prefix}/webhook/${encodeURIComponent(key)}`,
      route: 'GET /webhook/{chave}',
    });
    if (notFound(answer)) return null;
    const url = (answer.body as { webhookUrl?: unknown } | null)?.webhookUrl;
    if (answer.status !== 200 || typeof url !== 'string') {
      throw new PspUnreachable(`the PSP did not show the webhook: ${reasonOf(answer.body, answer.status)}`);
    }
    return { webhookUrl: url };
  }

  return { putCob, withdrawCob, getPix, listPix, putDevolucao, getDevolucao, putWebhook, getWebhook };
}
