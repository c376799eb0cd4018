/**
 * Efí's send API ("envio de Pix"), which the API Pix standard does not cover: `PUT /v3/gn/pix/{idEnvio}`
 * sends (the same `idEnvio` is the same payment: Efí refuses a second one), `GET
 * /v2/gn/pix/enviados/id-envio/{idEnvio}` looks one up and `GET /v2/gn/pix/enviados` lists a window.
 * Efí reports the result (REALIZADO / NAO_REALIZADO) on the webhook of the payer key; amounts the
 * receiving bank gives back are listed on the send as `devolucoes`.
 */
import { formatAmount } from '../../../core/money.ts';
import type { Listing, LookUp, SendAnswer, SendOrder, SendState } from '../rail.ts';
import type { PspHttpClient } from './http-client.ts';
import { listEveryPage } from './paged-list.ts';

const AMOUNT = /^\d{1,10}\.\d{2}$/;

function cents(value: unknown): bigint | null {
  if (typeof value !== 'string' || !AMOUNT.test(value)) return null;
  const [whole, fraction] = value.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction!);
}

function reasonOf(body: unknown, status: number): string {
  const b = body as { nome?: unknown; mensagem?: unknown; title?: unknown; detail?: unknown } | null;
  const text = [b?.nome, b?.mensagem, b?.title, b?.detail].filter((v) => typeof v === 'string').join(': ');
  return text ? `${text.slice(0, 300)} (HTTP ${status})` : `HTTP ${status}`;
}

/** Efí's record of a send (the PUT answer or a look-up), or null when it is not one. */
export function readSend(value: unknown, sendId?: string): SendState | null {
  const v = value as {
    idEnvio?: unknown;
    e2eId?: unknown;
    endToEndId?: unknown;
    valor?: unknown;
    status?: unknown;
    motivo?: unknown;
    devolucoes?: unknown;
  } | null;
  const amount = cents(v?.valor);
  const id = typeof v?.idEnvio === 'string' ? v.idEnvio : sendId;
  if (!id || (sendId && id !== sendId) || amount === null) return null;
  if (v!.status !== 'EM_PROCESSAMENTO' && v!.status !== 'REALIZADO' && v!.status !== 'NAO_REALIZADO')
    return null;
  const e2e =
    typeof v!.e2eId === 'string' ? v!.e2eId : typeof v!.endToEndId === 'string' ? v!.endToEndId : null;
  const returns: SendState['returns'] = [];
  for (const item of Array.isArray(v!.devolucoes) ? v!.devolucoes : []) {
    const r = item as { id?: unknown; valor?: unknown; status?: unknown; horario?: { liquidacao?: unknown } };
    const returned = cents(r?.valor);
    if (typeof r?.id !== 'string' || returned === null) return null;
    if (r.status !== undefined && r.status !== 'DEVOLVIDO') continue;
    const at = typeof r.horario?.liquidacao === 'string' ? new Date(r.horario.liquidacao) : new Date(0);
    returns.push({ id: r.id, amount: returned, at: Number.isNaN(at.getTime()) ? new Date(0) : at });
  }
  return {
    sendId: id,
    endToEndId: e2e && /^[A-Za-z0-9]{32}$/.test(e2e) ? e2e : null,
    amount,
    status: v!.status,
    reason: typeof v!.motivo === 'string' ? v!.motivo.slice(0, 500) : null,
    returns,
  };
}

export function createEfiSend(http: PspHttpClient, payerKey: string) {
  async function send(order: SendOrder): Promise<SendAnswer> {
    const favorecido: Record<string, string> = { chave: order.payee.key };
    if (order.payee.cpf) favorecido.cpf = order.payee.cpf;
    if (order.payee.cnpj) favorecido.cnpj = order.payee.cnpj;
    const answer = await http.call({
      method: 'PUT',
      path: `/v3/gn/pix/${order.sendId}`,
      route: 'PUT /v3/gn/pix/{idEnvio}',
      body: {
        valor: formatAmount(order.amount),
        pagador: { chave: payerKey, infoPagador: order.info.slice(0, 140) },
        favorecido,
      },
    });
    if (answer.status === 200 || answer.status === 201) {
      const state = readSend(answer.body, order.sendId);
      return state ? { state } : { retry: 'the PSP answered the send with something that is not one' };
    }
    if (answer.status === 409) return { retry: 'the PSP has this idEnvio already' };
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429) {
      return { refused: reasonOf(answer.body, answer.status) };
    }
    return { retry: reasonOf(answer.body, answer.status) };
  }

  async function lookUp(sendId: string): Promise<LookUp<SendState>> {
    const answer = await http.call({
      method: 'GET',
      path: `/v2/gn/pix/enviados/id-envio/${sendId}`,
      route: 'GET /v2/gn/pix/enviados/id-envio/{idEnvio}',
    });
    if (answer.status === 404) return { unknown: true };
    if (answer.status !== 200) return { retry: reasonOf(answer.body, answer.status) };
    const state = readSend(answer.body, sendId);
    return state ? { state } : { retry: 'the PSP answered something that is not this send' };
  }

  async function list(from: Date, to: Date): Promise<Listing<SendState>> {
    return listEveryPage(
      http,
      { path: '/v2/gn/pix/enviados', route: 'GET /v2/gn/pix/enviados', from, to },
      (item) => readSend(item),
    );
  }

  return { send, lookUp, list };
}
