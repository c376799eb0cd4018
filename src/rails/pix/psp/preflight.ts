/**
 * The pre-flight an operator runs before going live on a PSP (`npm run pix:check`): with the rail's own
 * variables, it obtains a token over mutual TLS, compares the scopes granted with those the rail needs,
 * reads the key's webhook (`GET /v2/webhook/{chave}`) and registers it when the PSP holds none (Efí then
 * checks the address: dev.efipay.com.br/docs/api-pix/webhooks), makes sure the address refuses a request
 * without the PSP's client certificate, and lists one page of received and of sent PIX. Each finding is
 * a line with what to do about it. It moves no money.
 */
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { reasonOf } from './answers.ts';
import type { PspConfig } from './config.ts';
import { createPspHttpClient } from './http-client.ts';

/** Every scope the rail uses, and what stops working without it. */
export const REQUIRED_SCOPES: [scope: string, use: string][] = [
  ['cob.write', 'on-ramp charges cannot be registered (PUT /v2/cob)'],
  ['cob.read', 'charges cannot be read back (GET /v2/cob)'],
  ['pix.read', 'received PIX cannot be confirmed or swept (GET /v2/pix)'],
  ['pix.write', 'deposits cannot be refunded (PUT /v2/pix/{e2eId}/devolucao)'],
  ['webhook.write', 'the webhook cannot be registered (PUT /v2/webhook)'],
  ['webhook.read', 'the webhook cannot be read (GET /v2/webhook)'],
  ['pix.send', 'off-ramp payouts cannot be sent (PUT /v3/gn/pix)'],
  [
    'gn.pix.send.read',
    'payouts accepted as EM_PROCESSAMENTO can never be looked up (GET /v2/gn/pix/enviados)',
  ],
];

export type Finding = { ok: boolean; check: string; detail: string };

/** What a failed connection says about the certificates, in an operator's words. */
function connectionFinding(message: string, config: PspConfig): Finding {
  if (/refused the client credentials/.test(message)) {
    return {
      ok: false,
      check: 'credentials',
      detail: `${message}. Fix: PONTE_PIX_CLIENT_ID and PONTE_PIX_CLIENT_SECRET must be the application's (Efí: API > Aplicações).`,
    };
  }
  if (
    /self[- ]signed|unable to (get|verify)|certificate (has expired|is not yet valid)|altnames|issuer/i.test(
      message,
    )
  ) {
    return {
      ok: false,
      check: 'PSP server certificate',
      detail: `${message}: the PSP's certificate is not trusted. Fix: PONTE_PIX_PSP_CA (or the system's CAs) must vouch for ${config.url.host}.`,
    };
  }
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|no answer within/i.test(message)) {
    return {
      ok: false,
      check: 'connection',
      detail: `${message}. Fix: PONTE_PIX_PSP_URL (${config.url.origin}) must be reachable from here.`,
    };
  }
  return {
    ok: false,
    check: 'client certificate',
    detail: `${message}: the PSP did not accept the client certificate. Fix: PONTE_PIX_CERT (and PONTE_PIX_CERT_PASSPHRASE) must be the certificate the PSP issued for this application and environment.`,
  };
}

/** POSTs to the webhook address without a client certificate: the status, or 0 when refused. */
function postWithoutCertificate(url: URL, ca: string | undefined): Promise<number> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ evento: 'pix_check' });
    const req = httpsRequest(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        ...(ca ? { ca: [...rootCertificates, ca] } : {}),
        timeout: 5_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

export async function preflight(config: PspConfig): Promise<Finding[]> {
  const http = createPspHttpClient(config);
  const findings: Finding[] = [];
  try {
    let granted: string[] | null;
    try {
      const token = await http.authenticate();
      granted = token.scopes;
      findings.push({
        ok: true,
        check: 'client certificate',
        detail: `mutual TLS with ${config.url.host} established`,
      });
      findings.push({ ok: true, check: 'credentials', detail: `token issued (valid ${token.seconds} s)` });
    } catch (error) {
      findings.push(connectionFinding((error as Error).message, config));
      return findings;
    }

    for (const [scope, use] of REQUIRED_SCOPES) {
      if (granted === null) break;
      findings.push(
        granted.includes(scope)
          ? { ok: true, check: `scope ${scope}`, detail: 'granted' }
          : {
              ok: false,
              check: `scope ${scope}`,
              detail: `not granted: ${use}. Fix: enable ${scope} in the application's scopes at the PSP, then run this again.`,
            },
      );
    }

    const key = encodeURIComponent(config.key);
    const shown = await http.call({
      method: 'GET',
      path: `/v2/webhook/${key}`,
      route: 'GET /webhook/{chave}',
    });
    const held = (shown.body as { webhookUrl?: unknown } | null)?.webhookUrl;
    if (shown.status === 200 && held === config.webhookUrl.href) {
      findings.push({
        ok: true,
        check: 'webhook registered',
        detail: `${config.webhookUrl.href} for the key`,
      });
    } else if (shown.status === 200 || shown.status === 404 || shown.status === 400) {
      // none, or another address: registering it makes the PSP check the address from its side
      const put = await http.call({
        method: 'PUT',
        path: `/v2/webhook/${key}`,
        route: 'PUT /webhook/{chave}',
        body: { webhookUrl: config.webhookUrl.href },
      });
      findings.push(
        put.status >= 200 && put.status < 300
          ? { ok: true, check: 'webhook registered', detail: `${config.webhookUrl.href} registered now` }
          : {
              ok: false,
              check: 'webhook reachable by the PSP',
              detail: `the PSP did not register ${config.webhookUrl.href}: ${reasonOf(put.body, put.status)}. Fix: the TLS terminator must answer POST at ${config.webhookUrl.pathname} and ${config.webhookUrl.pathname.replace(/\/+$/, '')}/pix, requiring the PSP's client certificate, and pass both to Ponte (README: "The PIX rail in production").`,
            },
      );
    } else {
      findings.push({
        ok: false,
        check: 'webhook registered',
        detail: `could not read the key's webhook: ${reasonOf(shown.body, shown.status)}`,
      });
    }

    const bare = await postWithoutCertificate(config.webhookUrl, config.ca);
    findings.push(
      bare >= 200 && bare < 300
        ? {
            ok: false,
            check: 'webhook requires the PSP certificate',
            detail: `${config.webhookUrl.href} answered ${bare} to a request without a client certificate: anyone can post to it, and Efí refuses such an address (webhook_invalido). Fix: require the PSP's client certificate at the TLS terminator.`,
          }
        : {
            ok: true,
            check: 'webhook requires the PSP certificate',
            detail: bare === 0 ? 'refused without a client certificate' : `answered ${bare} without one`,
          },
    );

    const to = new Date();
    const from = new Date(to.getTime() - 60 * 60_000);
    const window = new URLSearchParams({
      inicio: from.toISOString(),
      fim: to.toISOString(),
      'paginacao.paginaAtual': '0',
      'paginacao.itensPorPagina': '1',
    });
    for (const [check, path, route] of [
      ['received PIX listed', `/v2/pix?${window}`, 'GET /pix'],
      ['sent PIX listed', `/v2/gn/pix/enviados?${window}`, 'GET /v2/gn/pix/enviados'],
    ] as const) {
      const listed = await http.call({ method: 'GET', path, route });
      findings.push(
        listed.status === 200
          ? { ok: true, check, detail: 'one page read' }
          : { ok: false, check, detail: reasonOf(listed.body, listed.status) },
      );
    }
  } catch (error) {
    findings.push({ ok: false, check: 'PSP', detail: (error as Error).message });
  } finally {
    http.close();
  }
  return findings;
}

/** The report as printed: one line per finding, then `ready` or how many problems remain. */
export function report(findings: Finding[], environment: string): string {
  const lines = findings.map((f) => `  ${f.ok ? 'ok  ' : 'FAIL'}  ${f.check}: ${f.detail}`);
  const failed = findings.filter((f) => !f.ok).length;
  return [
    `PIX rail pre-flight (${environment})`,
    ...lines,
    failed === 0 ? 'ready' : `not ready: ${failed} problem${failed === 1 ? '' : 's'} above`,
  ].join('\n');
}
