/**
 * A PSP simulator: what Ponte's production PIX rail talks to in tests and local runs. HTTPS with mutual
 * TLS (client certificates issued by its CA only), the OAuth2 client-credentials token endpoint, the API
 * Pix routes Ponte uses (every request checked against the Banco Central's document: a violation is
 * recorded and answered 400), Efí's send routes with Efí's homologation outcomes, notifications posted to
 * the registered webhook, and faults on demand.
 *
 * Homologation outcomes of a send (Efí's documentation): 0.01–10.00 confirmed (by notification);
 * 10.01–20.00 rejected (by notification); above 20.00 refused at once (no notification); 4.00 confirmed
 * and then given back by the receiving bank as two returns of 2.00.
 *
 * Held to Efí's published behaviour, not to Ponte's reading of it:
 * - every request on an Efí route is checked against the official Node SDK's zod schemas (request body,
 *   listing query) and every 2xx answer the simulator gives against the SDK's response schemas
 *   (efi-schemas.ts); a mismatch on either side is a violation;
 * - each route needs its scope in the token (a configured grant; 403 without it);
 * - `PUT /v2/webhook/{chave}` first checks the address as Efí does (dev.efipay.com.br/docs/api-pix/webhooks):
 *   a POST to the address itself without a client certificate, which must be refused, then one with the
 *   PSP's certificate, which must get a 2xx; otherwise `400 webhook_invalido` and nothing is stored;
 * - unknown ids are `400 pix_nao_encontrado` / `400 devolucao_nao_encontrada`
 *   (dev.efipay.com.br/docs/api-pix/gestao-de-pix), not the standard's 404;
 * - a send's returns are `devolucoes: [{rtrId, valor, horario}]` (`PixSendDetailResponseSchema`), a send
 *   Efí did not make carries `gnExtras.erro.motivo`, and a send from a key with no webhook is refused
 *   (`webhook_nao_cadastrado`, dev.efipay.com.br/docs/api-pix/envio-pagamento-pix);
 * - `favorecido.chave` must be a key in its DICT form (CPF 11 digits, CNPJ 14 characters, `+55…`, an
 *   e-mail, a lower-case EVP).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createDynamicPix, hasError } from 'pix-utils';
import type { PspCertificates } from './certificates.ts';
import { checkEfiAnswer, checkEfiRequest, EFI_SCOPES, type EfiRoute, efiRoute } from './efi-schemas.ts';
import { createSpecValidator } from './spec.ts';

/**
 * How the PSP's requests reach Ponte's webhook address: with or without the PSP's client certificate.
 * Answers the HTTP status, or 0 when the connection was refused (a TLS terminator that requires the
 * certificate ends the handshake).
 */
export type Delivery = (
  url: string,
  body: unknown,
  options: { clientCertificate: boolean },
) => Promise<number>;

export type Faults = {
  /** Notifications are not sent at all. */
  drop: boolean;
  /** Each notification is sent twice. */
  duplicate: boolean;
  /** Notifications are held and sent newest first on `flush()`. */
  reorder: boolean;
  /** Delay before every answer. */
  delayMs: number;
};

type Charge = {
  txid: string;
  valor: string;
  chave: string;
  expiracao: number;
  devedor: unknown;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
  criacao: string;
  revisao: number;
  location: string;
};

type Refund = {
  id: string;
  rtrId: string;
  valor: string;
  status: string;
  motivo?: string;
  horario: { solicitacao: string; liquidacao?: string };
};
type Received = {
  endToEndId: string;
  txid?: string;
  valor: string;
  chave: string;
  horario: string;
  infoPagador?: string;
  devolucoes: Refund[];
};
type Send = {
  idEnvio: string;
  e2eId: string;
  valor: string;
  status: 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
  motivo?: string;
  chave: string;
  favorecido: { chave: string; cpf?: string; cnpj?: string };
  horario: { solicitacao: string; liquidacao?: string };
  /** Efí's shape of a return on a sent PIX: no id, no status, `horario` a string. */
  devolucoes: { rtrId: string; valor: string; horario: string }[];
};

export type SimulatorOptions = {
  certificates: PspCertificates;
  clientId?: string;
  clientSecret?: string;
  /** Token lifetime in seconds. */
  tokenSeconds?: number;
  /** How notifications reach Ponte (default: an HTTP(S) POST). */
  deliver?: Delivery;
  port?: number;
  /** The most items the PSP puts on one page of a listing, whatever is asked (real PSPs cap it). */
  maxPageSize?: number;
  /** The scopes the Efí application is granted (default: every scope Ponte needs). */
  scopes?: readonly string[];
};

const AMOUNT = /^\d{1,10}\.\d{2}$/;
const cents = (v: string) => BigInt(v.replace('.', ''));
const money = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

function e2e(ispb: string, at: Date): string {
  const stamp = at.toISOString().replace(/\D/g, '').slice(0, 12);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(11);
  return `E${ispb}${stamp}${[...bytes].map((b) => alphabet[b % 62]).join('')}`;
}

/** A DICT key: CPF 11 digits, CNPJ 14 characters, E.164 phone, e-mail, or a lower-case EVP. */
const DICT_KEY = [
  /^\d{11}$/,
  /^[0-9A-Z]{12}\d{2}$/,
  /^\+[1-9]\d{7,14}$/,
  /^[^\s@A-Z]{1,64}@[^\s@A-Z]+\.[^\s@A-Z]+$/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
];

/**
 * Posts to Ponte's webhook address over HTTPS as Efí does, presenting the PSP's client certificate or
 * not; the address's server certificate is checked against the test CA. 0: the connection was refused.
 */
export function httpsDelivery(certificates: PspCertificates): Delivery {
  return (url, body, { clientCertificate }) =>
    new Promise<number>((resolve) => {
      const payload = JSON.stringify(body);
      const req = httpsRequest(
        url,
        {
          method: 'POST',
          ca: certificates.ca,
          ...(clientCertificate
            ? { key: certificates.webhookClientKey, cert: certificates.webhookClientCert }
            : {}),
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
          timeout: 5_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(0));
      req.end(payload);
    });
}

export async function startPspSimulator(options: SimulatorOptions) {
  const clientId = options.clientId ?? 'ponte-client-id';
  const clientSecret = options.clientSecret ?? 'ponte-client-secret';
  const spec = createSpecValidator();
  const deliver = options.deliver ?? httpsDelivery(options.certificates);
  let granted = new Set<string>(options.scopes ?? EFI_SCOPES);

  const charges = new Map<string, Charge>();
  const received = new Map<string, Received>();
  const sends = new Map<string, Send>();
  const webhooks = new Map<string, { url: string; criacao: string }>();
  const webhookChecks: { url: string; withoutCertificate: number; withCertificate: number | null }[] = [];
  const tokens = new Map<string, { until: number; scopes: Set<string> }>();
  /** The Efí route each answer is for, so that `json` checks the answer against its schema. */
  const answering = new WeakMap<ServerResponse, EfiRoute>();
  const violations: string[] = [];
  const calls: { method: string; path: string; status: number }[] = [];
  const failures: { route: RegExp; status: number; count: number }[] = [];
  const held: unknown[][] = [];
  const pending = new Set<Promise<unknown>>();
  let tokensIssued = 0;
  const hooks: { beforeAnswer?: (method: string, path: string) => Promise<void> } = {};
  const faults: Faults = { drop: false, duplicate: false, reorder: false, delayMs: 0 };

  function track<T>(promise: Promise<T>): Promise<T> {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise)).catch(() => {});
    return promise;
  }

  async function notify(key: string, items: unknown[]): Promise<void> {
    const url = webhooks.get(key)?.url;
    if (!url || faults.drop) return;
    if (faults.reorder) {
      held.push(items);
      return;
    }
    const times = faults.duplicate ? 2 : 1;
    for (let i = 0; i < times; i++) {
      await track(
        deliver(`${url.replace(/\/$/, '')}/pix`, { pix: items }, { clientCertificate: true }).catch(() => 0),
      );
    }
  }

  /**
   * Efí's check of a webhook address before it stores it: a request without the client certificate must
   * be refused (any answer but a 2xx, or no connection), then one with it must get a 2xx. The body of the
   * test request is not documented; this one names the check.
   */
  async function checkWebhookAddress(url: string): Promise<string | null> {
    const probe = { evento: 'teste_webhook', horario: new Date().toISOString() };
    const without = await deliver(url, probe, { clientCertificate: false }).catch(() => 0);
    const check = { url, withoutCertificate: without, withCertificate: null as number | null };
    webhookChecks.push(check);
    if (without >= 200 && without < 300) {
      return 'A URL aceitou uma requisição sem o certificado de cliente da Efí (mTLS não exigido)';
    }
    check.withCertificate = await deliver(url, probe, { clientCertificate: true }).catch(() => 0);
    if (check.withCertificate < 200 || check.withCertificate >= 300) {
      return `A URL não respondeu 2xx à requisição com o certificado de cliente (HTTP ${check.withCertificate || 'sem conexão'})`;
    }
    return null;
  }

  const json = (res: ServerResponse, status: number, body?: unknown) => {
    const route = answering.get(res);
    if (route) violations.push(...checkEfiAnswer(route, status, body));
    res.writeHead(
      status,
      body === undefined
        ? {}
        : { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
    );
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const problem = (res: ServerResponse, status: number, title: string, detail?: string) =>
    json(res, status, {
      type: `https://pix.bcb.gov.br/api/v2/error/${title}`,
      title,
      status,
      ...(detail ? { detail } : {}),
    });

  function pixView(pix: Received) {
    return {
      endToEndId: pix.endToEndId,
      ...(pix.txid ? { txid: pix.txid } : {}),
      valor: pix.valor,
      chave: pix.chave,
      horario: pix.horario,
      ...(pix.infoPagador ? { infoPagador: pix.infoPagador } : {}),
      // a refund's reason is on its own detail, not in the PIX's list (PixDetailReceivedResponseSchema)
      ...(pix.devolucoes.length
        ? { devolucoes: pix.devolucoes.map(({ motivo: _, ...refund }) => refund) }
        : {}),
    };
  }

  function cobView(charge: Charge) {
    const brCode = createDynamicPix({
      merchantName: 'PONTE',
      merchantCity: 'SAO PAULO',
      url: charge.location,
    });
    if (hasError(brCode)) throw new Error('could not encode the charge');
    return {
      calendario: { criacao: charge.criacao, expiracao: charge.expiracao },
      txid: charge.txid,
      revisao: charge.revisao,
      loc: { id: 1, location: charge.location, tipoCob: 'cob', criacao: charge.criacao },
      location: charge.location,
      status: charge.status,
      ...(charge.devedor ? { devedor: charge.devedor } : {}),
      valor: { original: charge.valor },
      chave: charge.chave,
      pixCopiaECola: brCode.toBRCode(),
    };
  }

  function sendView(send: Send) {
    return {
      endToEndId: send.e2eId,
      idEnvio: send.idEnvio,
      valor: send.valor,
      chave: send.chave,
      status: send.status,
      horario: send.horario,
      favorecido: { chave: send.favorecido.chave },
      ...(send.motivo ? { gnExtras: { erro: { motivo: send.motivo } } } : {}),
      ...(send.devolucoes.length ? { devolucoes: send.devolucoes } : {}),
    };
  }

  function inWindow(at: string, query: URLSearchParams) {
    const t = Date.parse(at);
    return t >= Date.parse(query.get('inicio') ?? '') && t <= Date.parse(query.get('fim') ?? '');
  }

  function page<T>(items: T[], query: URLSearchParams) {
    const current = Number(query.get('paginacao.paginaAtual') ?? '0');
    const size = Math.min(
      Number(query.get('paginacao.itensPorPagina') ?? '100'),
      options.maxPageSize ?? 1000,
    );
    const pages = Math.max(1, Math.ceil(items.length / size));
    return {
      parametros: {
        inicio: query.get('inicio'),
        fim: query.get('fim'),
        paginacao: {
          paginaAtual: current,
          itensPorPagina: size,
          quantidadeDePaginas: pages,
          quantidadeTotalDeItens: items.length,
        },
      },
      pix: items.slice(current * size, (current + 1) * size),
    };
  }

  async function settleSend(send: Send): Promise<void> {
    const amount = cents(send.valor);
    const now = new Date().toISOString();
    if (amount > 1000n) {
      send.status = 'NAO_REALIZADO';
      send.motivo = 'Pix rejeitado pela instituição do recebedor (homologação: valor entre 10,01 e 20,00)';
    } else {
      send.status = 'REALIZADO';
    }
    send.horario.liquidacao = now;
    const item = {
      endToEndId: send.e2eId,
      valor: send.valor,
      horario: now,
      status: send.status,
      tipo: 'SOLICITACAO',
      gnExtras: {
        idEnvio: send.idEnvio,
        ...(send.motivo ? { erro: { codigo: 'AC03', motivo: send.motivo } } : {}),
      },
    };
    await notify(send.chave, [item]);
    if (send.status === 'REALIZADO' && amount === 400n) {
      for (let i = 0; i < 2; i++) {
        send.devolucoes.push({
          rtrId: e2e('99999999', new Date()).replace(/^E/, 'D'),
          valor: '2.00',
          horario: new Date().toISOString(),
        });
        await notify(send.chave, [{ ...item, tipo: 'DEVOLUCAO', devolucoes: send.devolucoes }]);
      }
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://psp.invalid');
    const method = req.method ?? 'GET';
    if (hooks.beforeAnswer) await hooks.beforeAnswer(method, url.pathname);
    if (faults.delayMs > 0) await new Promise((r) => setTimeout(r, faults.delayMs));
    const routeName = `${method} ${url.pathname}`;
    const failure = failures.find((f) => f.count > 0 && f.route.test(routeName));
    if (failure) {
      failure.count--;
      return problem(res, failure.status, 'ServicoIndisponivel', 'simulated failure');
    }
    let body: unknown;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        violations.push(`${routeName}: body is not JSON`);
        return problem(res, 400, 'RequisicaoInvalida', 'body is not JSON');
      }
    }

    if (method === 'POST' && url.pathname === '/oauth/token') {
      const basic = (req.headers.authorization ?? '').replace(/^Basic /, '');
      const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      if (id !== clientId || secret !== clientSecret) return json(res, 401, { error: 'invalid_client' });
      if ((body as { grant_type?: unknown })?.grant_type !== 'client_credentials') {
        violations.push('POST /oauth/token: grant_type must be client_credentials');
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      const token = randomBytes(24).toString('base64url');
      const seconds = options.tokenSeconds ?? 3600;
      tokens.set(token, { until: Date.now() + seconds * 1000, scopes: new Set(granted) });
      tokensIssued++;
      return json(res, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: seconds,
        scope: [...granted].join(' '),
      });
    }

    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const session = tokens.get(bearer);
    if (!session || session.until < Date.now())
      return problem(res, 401, 'AcessoNegado', 'token missing or expired');

    const efiCall = efiRoute(method, url.pathname);
    if (efiCall) {
      if (!session.scopes.has(efiCall.scope)) {
        return json(res, 403, {
          nome: 'acesso_negado',
          mensagem: `Requisição de acesso negada: o escopo ${efiCall.scope} não está liberado para a aplicação`,
        });
      }
      const shape = checkEfiRequest(efiCall, url.searchParams, body);
      if (shape.length > 0) {
        violations.push(...shape);
        return json(res, 400, { nome: 'json_invalido', mensagem: shape.join('; ') });
      }
      answering.set(res, efiCall);
    }
    if (url.pathname.startsWith('/v2/gn/') || url.pathname.startsWith('/v3/gn/'))
      return efi(method, url, body, res);
    if (!url.pathname.startsWith('/v2/')) return problem(res, 404, 'NaoEncontrado');
    const path = url.pathname.slice(3);
    const errors = spec.check(method, path, url.searchParams, body);
    if (errors.length > 0) {
      violations.push(...errors);
      return problem(res, 400, 'RequisicaoInvalida', errors.join('; '));
    }
    let m: RegExpExecArray | null;
    m = /^\/cob\/([A-Za-z0-9]+)$/.exec(path);
    if (m) {
      const txid = m[1]!;
      if (!/^[A-Za-z0-9]{26,35}$/.test(txid)) {
        violations.push(`${method} /cob/{txid}: txid ${txid} must have 26 to 35 letters and digits`);
        return problem(res, 400, 'CobOperacaoInvalida');
      }
      if (method === 'PUT') {
        const b = body as {
          calendario?: { expiracao?: number };
          valor: { original: string };
          chave: string;
          devedor?: unknown;
        };
        const existing = charges.get(txid);
        if (existing) return problem(res, 400, 'CobOperacaoInvalida', 'txid already used');
        const charge: Charge = {
          txid,
          valor: b.valor.original,
          chave: b.chave,
          expiracao: b.calendario?.expiracao ?? 86400,
          devedor: b.devedor,
          status: 'ATIVA',
          criacao: new Date().toISOString(),
          revisao: 0,
          location: `pix.simulator.invalid/qr/v2/${randomUUID().replace(/-/g, '')}`,
        };
        charges.set(txid, charge);
        return json(res, 201, cobView(charge));
      }
      const charge = charges.get(txid);
      if (!charge) return problem(res, 404, 'NaoEncontrado');
      if (method === 'PATCH') {
        const status = (body as { status?: string }).status;
        if (status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') {
          if (charge.status !== 'ATIVA')
            return problem(res, 400, 'CobOperacaoInvalida', `the charge is ${charge.status}`);
          charge.status = status;
          charge.revisao++;
        }
        return json(res, 200, cobView(charge));
      }
      return json(res, 200, cobView(charge));
    }
    m = /^\/pix\/([A-Za-z0-9]+)\/devolucao\/([A-Za-z0-9]+)$/.exec(path);
    if (m) {
      const pix = received.get(m[1]!);
      if (!pix) return json(res, 400, { nome: 'pix_nao_encontrado', mensagem: 'Pix não encontrado' });
      const id = m[2]!;
      const found = pix.devolucoes.find((d) => d.id === id);
      if (method === 'GET')
        return found
          ? json(res, 200, found)
          : json(res, 400, { nome: 'devolucao_nao_encontrada', mensagem: 'Devolução não encontrada' });
      if (found)
        return json(res, 400, {
          nome: 'devolucao_id_duplicado',
          mensagem: 'Já existe uma devolução com este id',
        });
      const valor = (body as { valor: string }).valor;
      const refunded = pix.devolucoes
        .filter((d) => d.status !== 'NAO_REALIZADO')
        .reduce((s, d) => s + cents(d.valor), 0n);
      if (refunded + cents(valor) > cents(pix.valor))
        return problem(res, 400, 'DevolucaoOperacaoInvalida', 'more than the PIX carried');
      const at = new Date().toISOString();
      const refund: Refund = {
        id,
        rtrId: e2e('99999999', new Date()).replace(/^E/, 'D'),
        valor,
        status: 'EM_PROCESSAMENTO',
        horario: { solicitacao: at },
      };
      pix.devolucoes.push(refund);
      json(res, 201, refund);
      // the refund settles at once after its answer, and is notified like a payment
      setImmediate(() => {
        refund.status = refundOutcome(cents(valor));
        refund.horario.liquidacao = new Date().toISOString();
        if (refund.status === 'NAO_REALIZADO') refund.motivo = 'Devolução não realizada (simulador)';
        void track(notify(pix.chave, [pixView(pix)]));
      });
      return;
    }
    m = /^\/pix\/([A-Za-z0-9]+)$/.exec(path);
    if (m) {
      const pix = received.get(m[1]!);
      return pix
        ? json(res, 200, pixView(pix))
        : json(res, 400, { nome: 'pix_nao_encontrado', mensagem: 'Pix não encontrado' });
    }
    if (path === '/pix') {
      const items = [...received.values()]
        .filter((p) => inWindow(p.horario, url.searchParams))
        .sort((a, b) => a.horario.localeCompare(b.horario));
      return json(res, 200, page(items.map(pixView), url.searchParams));
    }
    m = /^\/webhook\/(.+)$/.exec(path);
    if (m) {
      const key = decodeURIComponent(m[1]!);
      if (method === 'PUT') {
        const webhookUrl = (body as { webhookUrl: string }).webhookUrl;
        const refused = await checkWebhookAddress(webhookUrl);
        if (refused) return json(res, 400, { nome: 'webhook_invalido', mensagem: refused });
        webhooks.set(key, { url: webhookUrl, criacao: new Date().toISOString() });
        return json(res, 200, { webhookUrl });
      }
      const webhook = webhooks.get(key);
      return webhook
        ? json(res, 200, { webhookUrl: webhook.url, chave: key, criacao: webhook.criacao })
        : json(res, 404, { nome: 'webhook_nao_encontrado', mensagem: 'Webhook não encontrado para a chave' });
    }
    return problem(res, 404, 'NaoEncontrado');
  }

  let refundOutcome: (amount: bigint) => 'DEVOLVIDO' | 'NAO_REALIZADO' = () => 'DEVOLVIDO';

  function efi(method: string, url: URL, body: unknown, res: ServerResponse) {
    let m = /^\/v3\/gn\/pix\/([^/]+)$/.exec(url.pathname);
    if (method === 'PUT' && m) {
      const idEnvio = m[1]!;
      const b = body as
        | {
            valor?: unknown;
            pagador?: { chave?: unknown; infoPagador?: unknown };
            favorecido?: { chave?: unknown; cpf?: unknown; cnpj?: unknown };
          }
        | undefined;
      const shape: string[] = [];
      if (!/^[a-zA-Z0-9]{1,35}$/.test(idEnvio)) shape.push('idEnvio must have 1 to 35 letters and digits');
      if (typeof b?.valor !== 'string' || !AMOUNT.test(b.valor) || cents(b.valor) === 0n)
        shape.push('valor must be an amount like 10.00');
      if (typeof b?.pagador?.chave !== 'string') shape.push('pagador.chave is required');
      if (
        b?.pagador?.infoPagador !== undefined &&
        (typeof b.pagador.infoPagador !== 'string' || b.pagador.infoPagador.length > 140)
      )
        shape.push('pagador.infoPagador has at most 140 characters');
      if (typeof b?.favorecido?.chave !== 'string') shape.push('favorecido.chave is required');
      else if (!DICT_KEY.some((form) => form.test(b.favorecido!.chave as string)))
        shape.push(
          `favorecido.chave ${b.favorecido.chave} is not a key in its DICT form (a CPF or CNPJ bare)`,
        );
      if (b?.favorecido?.cpf !== undefined && !/^\d{11}$/.test(String(b.favorecido.cpf)))
        shape.push('favorecido.cpf has 11 digits');
      if (b?.favorecido?.cnpj !== undefined && !/^[0-9A-Z]{14}$/.test(String(b.favorecido.cnpj)))
        shape.push('favorecido.cnpj has 14 characters');
      if (shape.length > 0) {
        violations.push(...shape.map((s) => `PUT /v3/gn/pix/{idEnvio}: ${s}`));
        return json(res, 400, { nome: 'chave_invalida', mensagem: shape.join('; ') });
      }
      if (!webhooks.has(b!.pagador!.chave as string)) {
        return json(res, 400, {
          nome: 'webhook_nao_cadastrado',
          mensagem: 'A chave do pagador não tem webhook associado',
        });
      }
      const existing = sends.get(idEnvio);
      if (existing)
        return json(res, 409, {
          nome: 'id_envio_duplicado',
          mensagem: 'Já existe um envio com este idEnvio',
        });
      if (cents(b!.valor as string) > 2000n) {
        return json(res, 400, {
          nome: 'saldo_insuficiente',
          mensagem: 'Pix recusado (homologação: valor acima de 20,00)',
        });
      }
      const now = new Date();
      const send: Send = {
        idEnvio,
        e2eId: e2e('09089356', now),
        valor: b!.valor as string,
        status: 'EM_PROCESSAMENTO',
        chave: b!.pagador!.chave as string,
        favorecido: b!.favorecido as Send['favorecido'],
        horario: { solicitacao: now.toISOString() },
        devolucoes: [],
      };
      sends.set(idEnvio, send);
      json(res, 201, {
        idEnvio,
        endToEndId: send.e2eId,
        valor: send.valor,
        horario: send.horario,
        status: send.status,
      });
      if (autoSettle) setImmediate(() => void track(settleSend(send)));
      return;
    }
    m = /^\/v2\/gn\/pix\/enviados\/id-envio\/([^/]+)$/.exec(url.pathname);
    if (method === 'GET' && m) {
      const send = sends.get(m[1]!);
      return send
        ? json(res, 200, sendView(send))
        : json(res, 404, { nome: 'envio_nao_encontrado', mensagem: 'Envio não encontrado' });
    }
    if (method === 'GET' && url.pathname === '/v2/gn/pix/enviados') {
      if (!url.searchParams.get('inicio') || !url.searchParams.get('fim')) {
        violations.push('GET /v2/gn/pix/enviados: inicio and fim are required');
        return json(res, 400, { nome: 'parametros_invalidos' });
      }
      const items = [...sends.values()].filter((s) => inWindow(s.horario.solicitacao, url.searchParams));
      return json(res, 200, page(items.map(sendView), url.searchParams));
    }
    return json(res, 404, { nome: 'nao_encontrado' });
  }

  let autoSettle = true;

  const server: Server = createServer(
    {
      key: options.certificates.serverKey,
      cert: options.certificates.serverCert,
      ca: options.certificates.ca,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        route(req, res, Buffer.concat(chunks).toString('utf8'))
          .catch((error) => {
            violations.push(`simulator error: ${(error as Error).message}`);
            if (!res.headersSent) problem(res, 500, 'ErroInterno');
          })
          .finally(() =>
            calls.push({ method: req.method ?? '', path: req.url ?? '', status: res.statusCode }),
          );
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `https://localhost:${port}`,
    port,
    clientId,
    clientSecret,
    faults,
    /** `beforeAnswer` runs before each answer (while Ponte waits for it). */
    hooks,
    violations,
    calls,
    charges,
    received,
    sends,
    webhooks,
    get tokensIssued() {
      return tokensIssued;
    },
    /** Every token issued so far stops working (the next call is answered 401). */
    expireTokens() {
      for (const session of tokens.values()) session.until = 0;
    },
    /** The scopes granted to tokens issued from now on. */
    grant(scopes: readonly string[]) {
      granted = new Set(scopes);
    },
    /** Each check of a webhook address: what it answered without and with the PSP's certificate. */
    webhookChecks,
    /** The next `count` calls whose `METHOD /path` matches answer `status`. */
    fail(routePattern: RegExp, status: number, count = 1) {
      failures.push({ route: routePattern, status, count });
    },
    /** Sends settle on their own (default) or wait for `settlePending()`. */
    setAutoSettle(value: boolean) {
      autoSettle = value;
    },
    async settlePending() {
      for (const send of sends.values()) if (send.status === 'EM_PROCESSAMENTO') await settleSend(send);
    },
    setRefundOutcome(decide: (amount: bigint) => 'DEVOLVIDO' | 'NAO_REALIZADO') {
      refundOutcome = decide;
    },
    /**
     * A payer pays: with `txid`, the charge (its amount unless `valor` says otherwise); the PSP records
     * the PIX and notifies the webhook of the key. Returns the PIX's end-to-end id.
     */
    async pay(txid: string | null, valor?: string, key?: string): Promise<string> {
      const charge = txid ? charges.get(txid) : undefined;
      const at = new Date();
      const pix: Received = {
        endToEndId: e2e('60701190', at),
        ...(txid ? { txid } : {}),
        valor: valor ?? charge?.valor ?? '1.00',
        chave: charge?.chave ?? key ?? [...webhooks.keys()][0] ?? 'unknown-key',
        horario: at.toISOString(),
        infoPagador: 'pagamento',
        devolucoes: [],
      };
      received.set(pix.endToEndId, pix);
      if (charge && charge.status === 'ATIVA') charge.status = 'CONCLUIDA';
      await notify(pix.chave, [pixView(pix)]);
      return pix.endToEndId;
    },
    /** Sends the notifications held while `faults.reorder` was on, newest first. */
    async flush() {
      const items = held.splice(0).reverse();
      const wasReordering = faults.reorder;
      faults.reorder = false;
      for (const batch of items) await notify([...webhooks.keys()][0]!, batch as unknown[]);
      faults.reorder = wasReordering;
    },
    /** Posts a raw notification body to the key's webhook as the PSP would. */
    async notifyRaw(key: string, items: unknown[]) {
      await notify(key, items);
    },
    /** Waits for the notifications under way. */
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    /** What moved through the account: received minus refunded, and sent minus returned, in cents. */
    moved() {
      let inflow = 0n;
      for (const pix of received.values()) {
        inflow += cents(pix.valor);
        for (const d of pix.devolucoes) if (d.status === 'DEVOLVIDO') inflow -= cents(d.valor);
      }
      let outflow = 0n;
      for (const send of sends.values()) {
        if (send.status !== 'REALIZADO') continue;
        outflow += cents(send.valor);
        for (const d of send.devolucoes) outflow -= cents(d.valor);
      }
      return { inflow, outflow, money };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type PspSimulator = Awaited<ReturnType<typeof startPspSimulator>>;
