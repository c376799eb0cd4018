/**
 * Reading a PSP's answers, the parts the API Pix calls and Efí's send calls share: amounts, the reason of
 * a refusal, and "not found" as the PSP says it.
 */
import type { PspAnswer } from './http-client.ts';

const AMOUNT = /^\d{1,10}\.\d{2}$/;

/** An API Pix amount (`"10.50"`) in cents, or null when it is not one. */
export function cents(value: unknown): bigint | null {
  if (typeof value !== 'string' || !AMOUNT.test(value)) return null;
  const [whole, fraction] = value.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction!);
}

/** A refusal's words: the problem's title and detail (API Pix) or Efí's `nome` and `mensagem`. */
export function reasonOf(body: unknown, status: number): string {
  const b = body as { nome?: unknown; mensagem?: unknown; title?: unknown; detail?: unknown } | null;
  const text = [b?.title, b?.detail, b?.nome, b?.mensagem].filter((v) => typeof v === 'string').join(': ');
  return text ? `${text.slice(0, 300)} (HTTP ${status})` : `HTTP ${status}`;
}

/**
 * Whether the PSP says it has no such resource. The API Pix standard answers 404; Efí answers 400 with
 * a `nome` naming what it did not find — `pix_nao_encontrado` for `GET /v2/pix/{e2eid}`,
 * `devolucao_nao_encontrada` for `GET /v2/pix/{e2eid}/devolucao/{id}`
 * (dev.efipay.com.br/docs/api-pix/gestao-de-pix) — and the same form for a send it does not have.
 */
export function notFound(answer: PspAnswer): boolean {
  if (answer.status === 404) return true;
  const nome = (answer.body as { nome?: unknown } | null)?.nome;
  return answer.status === 400 && typeof nome === 'string' && /_nao_encontrad[oa]$/.test(nome);
}

/**
 * Whether a 4xx is the PSP's final word on the request itself. Not: a timeout (408), a throttle (429),
 * credentials refused (401, once a new token was tried) or a scope the application lacks (403): those say
 * nothing of the payment, which is asked again once the rail is mended (`npm run pix:check` names them).
 */
export function refusedForGood(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
}
