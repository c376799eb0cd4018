/**
 * One authenticated connection to a PSP: mutual TLS with the PSP-issued client certificate, the PSP's
 * server checked against the configured CA bundle (or the system's), and an OAuth2 client-credentials
 * token (`POST /oauth/token`, HTTP Basic, `{"grant_type":"client_credentials"}`) cached until shortly
 * before it expires and fetched again when the PSP answers 401. Every call has a deadline. The client
 * knows nothing of Ponte's domain: it answers status and parsed body, or a failure saying why.
 */
import { Agent, request as httpsRequest } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { PspConfig } from './config.ts';

/** The PSP's answer: its status, its parsed body and, on a 429 or 503, how long it asked to wait. */
export type PspAnswer = { status: number; body: unknown; retryAfterMs?: number };

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d{1,6}$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A call that got no answer: refused, reset, timed out, or a body that is not JSON. */
export class PspUnreachable extends Error {}

export type PspObserver = {
  /** One call ended: its route template (`PUT /v2/cob/{txid}`) and outcome (`2xx`, `4xx`, `5xx`, `timeout`, `error`). */
  call?(route: string, outcome: string, seconds: number): void;
  tokenRefreshed?(): void;
  /** Something the PSP answered that could not be read, and why (never blocks the rest). */
  unreadable?(item: unknown, reason: string): void;
};

export type PspCall = {
  method: 'GET' | 'PUT' | 'PATCH' | 'POST';
  /** Path under the PSP's address, query included. */
  path: string;
  /** The route template the call is counted under. */
  route: string;
  body?: unknown;
};

/** A token is used until this long before the PSP says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export function createPspHttpClient(config: PspConfig, observer: PspObserver = {}, now = () => Date.now()) {
  const cert = config.certificate;
  // the certificate read once: given as options, every new connection decoded the PKCS#12 file again
  // (connections are opened again after each idle spell, up to 64 at once)
  const secureContext = createSecureContext({
    ...('pfx' in cert ? { pfx: cert.pfx } : { cert: cert.pem, key: cert.pem }),
    ...(cert.passphrase !== undefined ? { passphrase: cert.passphrase } : {}),
    ...(config.ca ? { ca: config.ca } : {}),
    minVersion: 'TLSv1.2',
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 64, secureContext });
  const base = config.url.href.endsWith('/') ? config.url.href.slice(0, -1) : config.url.href;
  let token: { value: string; until: number; scopes: string[] | null; seconds: number } | null = null;
  let fetching: Promise<string> | null = null;

  function send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    route: string,
  ): Promise<PspAnswer> {
    const started = now();
    const target = new URL(base + path);
    return new Promise<PspAnswer>((resolve, reject) => {
      const done = (outcome: string) => observer.call?.(route, outcome, (now() - started) / 1000);
      const req = httpsRequest(
        target,
        {
          method,
          agent,
          headers: {
            accept: 'application/json',
            ...(body !== undefined
              ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
              : {}),
            ...headers,
          },
          timeout: config.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            // a PSP answer is small; an endless one is cut off rather than buffered
            if (size > 8 * 1024 * 1024) req.destroy(new PspUnreachable('the PSP answer is too large'));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            done(`${Math.floor(status / 100)}xx`);
            const text = Buffer.concat(chunks).toString('utf8');
            const wait =
              status === 429 || status === 503 ? retryAfterMs(res.headers['retry-after'], now()) : undefined;
            const answered = (body: unknown): PspAnswer =>
              wait === undefined ? { status, body } : { status, body, retryAfterMs: wait };
            if (text.trim() === '') return resolve(answered(null));
            try {
              resolve(answered(JSON.parse(text)));
            } catch {
              // a refusal may come as text; a success must be JSON
              if (status >= 400) resolve(answered(text.slice(0, 500)));
              else reject(new PspUnreachable(`the PSP answered HTTP ${status} with a body that is not JSON`));
            }
          });
          res.on('error', (error) => reject(new PspUnreachable(error.message)));
        },
      );
      const deadline = setTimeout(() => {
        done('timeout');
        req.destroy(new PspUnreachable(`no answer within ${config.timeoutMs} ms`));
      }, config.timeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', () => req.destroy(new PspUnreachable(`no answer within ${config.timeoutMs} ms`)));
      req.on('error', (error) => {
        clearTimeout(deadline);
        if (!(error instanceof PspUnreachable)) done('error');
        reject(error instanceof PspUnreachable ? error : new PspUnreachable(error.message));
      });
      req.end(body);
    });
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
    const answer = await send(
      'POST',
      '/oauth/token',
      { authorization: `Basic ${basic}` },
      JSON.stringify({ grant_type: 'client_credentials' }),
      'POST /oauth/token',
    );
    const body = answer.body as { access_token?: unknown; expires_in?: unknown; scope?: unknown } | null;
    if (answer.status !== 200 || typeof body?.access_token !== 'string' || body.access_token === '') {
      throw new PspUnreachable(`the PSP refused the client credentials (HTTP ${answer.status})`);
    }
    const seconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300;
    // a token that lives less than twice the margin is used for half its life
    const margin = Math.min(TOKEN_MARGIN_MS, (seconds * 1000) / 2);
    const scopes = typeof body.scope === 'string' ? body.scope.split(/\s+/).filter(Boolean) : null;
    token = { value: body.access_token, until: now() + seconds * 1000 - margin, scopes, seconds };
    observer.tokenRefreshed?.();
    return body.access_token;
  }

  /** The cached token, or a new one (one fetch at a time however many calls wait for it). */
  async function currentToken(stale?: string): Promise<string> {
    if (token && token.value !== stale && now() < token.until) return token.value;
    if (!fetching) {
      fetching = fetchToken().finally(() => {
        fetching = null;
      });
    }
    return fetching;
  }

  async function call(spec: PspCall): Promise<PspAnswer> {
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const first = await currentToken();
    const answer = await send(spec.method, spec.path, { authorization: `Bearer ${first}` }, body, spec.route);
    if (answer.status !== 401) return answer;
    // the token expired or was revoked early: one new token, one more try
    if (token?.value === first) token = null;
    const second = await currentToken(first);
    return send(spec.method, spec.path, { authorization: `Bearer ${second}` }, body, spec.route);
  }

  return {
    call,
    /** A new token: the scopes the PSP granted (null when its answer does not list them) and its lifetime. */
    async authenticate(): Promise<{ scopes: string[] | null; seconds: number }> {
      token = null;
      await currentToken();
      return { scopes: token!.scopes, seconds: token!.seconds };
    },
    close() {
      agent.destroy();
    },
  };
}

export type PspHttpClient = ReturnType<typeof createPspHttpClient>;
