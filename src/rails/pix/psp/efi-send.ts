/**
 * Efí's send API ("envio de Pix", dev.efipay.com.br/docs/api-pix/envio-pagamento-pix), which the API Pix
 * standard does not cover: `PUT /v3/gn/pix/{idEnvio}` sends (the same `idEnvio` is the same payment: Efí
 * refuses a second one), `GET /v2/gn/pix/enviados/id-envio/{idEnvio}` looks one up and
 * `GET /v2/gn/pix/enviados` lists a window. Efí reports the result (REALIZADO / NAO_REALIZADO) on the
 * webhook of the payer key; amounts the receiving bank gives back are listed on the send as
 * `devolucoes: [{rtrId, valor, horario}]` (`PixSendDetailResponseSchema` of the official Node SDK,
 * sdk-node-apis-efi). The request and answer shapes are those of that SDK's schemas.
 */
import { formatAmount } from '../../../core/money.ts';
import type { Listing, LookUp, SendAnswer, SendOrder, SendState } from '../rail.ts';
import { cents, notFound, reasonOf, refusedForGood } from './answers.ts';
import type { PspHttpClient } from './http-client.ts';
import { listEveryPage, type ReportUnreadable } from './paged-list.ts';

const E2E = /^[A-Za-z0-9]{32}$/;
const STATUSES = new Set(['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO']);

type SendRecord = {
  idEnvio?: unknown;
  endToEndId?: unknown;
  e2eId?: unknown;
  valor?: unknown;
  status?: unknown;
  motivo?: unknown;
  gnExtras?: { erro?: { motivo?: unknown; nome?: unknown } };
  devolucoes?: unknown;
};

/** Why Efí did not make a PIX: `gnExtras.erro.motivo` (its webhook and send records), else `motivo`. */
export function refusalOf(value: unknown): string | null {
  const v = value as SendRecord | null;
  const reason = v?.gnExtras?.erro?.motivo ?? v?.motivo;
  return typeof reason === 'string' && reason.trim() !== '' ? reason.slice(0, 500) : null;
}

/** One part the receiving bank gave back: `{rtrId, valor, horario}`, `horario` an instant as text. */
function readReturn(item: unknown): SendState['returns'][number] | string {
  const r = item as { rtrId?: unknown; valor?: unknown; horario?: unknown } | null;
  const amount = cents(r?.valor);
  if (typeof r?.rtrId !== 'string' || r.rtrId === '') return 'a return without its rtrId';
  if (amount === null || amount <= 0n) return `return ${r.rtrId.slice(0, 40)} has no amount like 2.00`;
  const at = typeof r.horario === 'string' ? new Date(r.horario) : new Date(Number.NaN);
  return { id: r.rtrId, amount, at: Number.isNaN(at.getTime()) ? null : at };
}

/**
 * Efí's record of a send (the PUT answer, a look-up or a listing's item), or a sentence saying why it is
 * not one. A return that cannot be read does not hide the send: the send is read, and the return is
 * reported to be shown to operators.
 */
export function readSend(
  value: unknown,
  sendId?: string,
  report: ReportUnreadable = () => {},
): SendState | string {
  const v = value as SendRecord | null;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'a send must be an object';
  const id = typeof v.idEnvio === 'string' ? v.idEnvio : sendId;
  if (!id) return 'a send without its idEnvio';
  if (sendId && id !== sendId) return `the PSP answered send ${id.slice(0, 40)} for ${sendId}`;
  const amount = cents(v.valor);
  if (amount === null) return `send ${id} has no amount like 10.00`;
  if (typeof v.status !== 'string' || !STATUSES.has(v.status)) return `send ${id} has no known status`;
  const e2e = typeof v.endToEndId === 'string' ? v.endToEndId : typeof v.e2eId === 'string' ? v.e2eId : null;
  const returns: SendState['returns'] = [];
  for (const item of Array.isArray(v.devolucoes) ? v.devolucoes : []) {
    const read = readReturn(item);
    if (typeof read === 'string') report({ idEnvio: id, devolucao: item }, `send ${id}: ${read}`);
    else returns.push(read);
  }
  return {
    sendId: id,
    endToEndId: e2e && E2E.test(e2e) ? e2e : null,
    amount,
    status: v.status as SendState['status'],
    reason: refusalOf(v),
    returns,
  };
}

/**
 * `payments` carries the sends, paced per key; look-ups and listings go on `http`. What the PSP answers
 * that cannot be read is handed to `report` (logged, counted and shown to operators by the wiring).
 */
export function createEfiSend(
  http: PspHttpClient,
  payerKey: string,
  payments: PspHttpClient = http,
  report: ReportUnreadable = () => {},
) {
  async function send(order: SendOrder): Promise<SendAnswer> {
    const favorecido: Record<string, string> = { chave: order.payee.key };
    if (order.payee.cpf) favorecido.cpf = order.payee.cpf;
    else if (order.payee.cnpj) favorecido.cnpj = order.payee.cnpj;
    const answer = await payments.call({
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
      const state = readSend(answer.body, order.sendId, report);
      if (typeof state !== 'string') return { state };
      report(answer.body, state);
      return { retry: `the PSP answered the send with ${state}` };
    }
    if (answer.status === 409) return { retry: 'the PSP has this idEnvio already' };
    // the payer key has no webhook (yet): a fault of the rail, not of this payment, which waits for it
    if ((answer.body as { nome?: unknown } | null)?.nome === 'webhook_nao_cadastrado') {
      return { retry: reasonOf(answer.body, answer.status) };
    }
    if (refusedForGood(answer.status)) return { refused: reasonOf(answer.body, answer.status) };
    return { retry: reasonOf(answer.body, answer.status) };
  }

  async function lookUp(sendId: string): Promise<LookUp<SendState>> {
    const answer = await http.call({
      method: 'GET',
      path: `/v2/gn/pix/enviados/id-envio/${sendId}`,
      route: 'GET /v2/gn/pix/enviados/id-envio/{idEnvio}',
    });
    if (notFound(answer)) return { unknown: true };
    if (answer.status !== 200) return { retry: reasonOf(answer.body, answer.status) };
    const state = readSend(answer.body, sendId, report);
    if (typeof state !== 'string') return { state };
    report(answer.body, state);
    return { retry: `the PSP answered ${state}` };
  }

  async function list(from: Date, to: Date): Promise<Listing<SendState>> {
    return listEveryPage(
      http,
      { path: '/v2/gn/pix/enviados', route: 'GET /v2/gn/pix/enviados', from, to },
      (item) => readSend(item, undefined, report),
      report,
    );
  }

  return { send, lookUp, list };
}
