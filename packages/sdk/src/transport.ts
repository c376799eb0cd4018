/**
 * One HTTP exchange with the API, retried when that is safe: network failures, timeouts, 429 (after
 * Retry-After) and 5xx, with exponential back-off and jitter. A POST carries an Idempotency-Key generated
 * once and sent again on every retry, so a retried creation never creates twice. A 4xx is never retried.
 */
import { randomUUID } from 'node:crypto';
import { PonteApiError, PonteConnectionError, type ProblemBody } from './errors.js';
import { backoffMs, retryAfterMs, retryableStatus } from './retry.js';
import { SDK_VERSION } from './version.js';

export type ClientOptions = {
  /** `sk_sandbox_...` or `sk_live_...`; the key also chooses the default server. */
  apiKey: string;
  /** The API's address; by default the sandbox or production server of the key's environment. */
  baseUrl?: string;
  /** Per attempt, connection to last byte (default 30 s). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
};

export type RequestOptions = {
  /** For POSTs: the Idempotency-Key to send (default: a new UUID, reused on every retry). */
  idempotencyKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
};

export type Query = Record<string, string | number | boolean | undefined | null>;

export type ApiRequest = {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Query | undefined;
  body?: unknown;
  options?: RequestOptions | undefined;
};

/** Where a deployment of Ponte serves its public API when nothing is configured. */
export const DEFAULT_BASE_URLS = {
  sandbox: 'http://localhost:8081',
  production: 'http://localhost:8080',
} as const;

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
const MAX_RETRY_AFTER_MS = 60_000;

export function environmentOfKey(apiKey: string): 'sandbox' | 'production' {
  if (apiKey.startsWith('sk_sandbox_')) return 'sandbox';
  if (apiKey.startsWith('sk_live_')) return 'production';
  throw new TypeError('apiKey must be a Ponte API key (sk_sandbox_... or sk_live_...)');
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Why a request got no answer, in the words of the layer that knows: fetch reports "fetch failed" and
 * keeps the cause (connect ECONNREFUSED 127.0.0.1:8081, getaddrinfo ENOTFOUND host, a TLS error) inside.
 */
function connectionCause(error: unknown): string {
  const causes: string[] = [];
  for (let current = error as { message?: unknown; cause?: unknown } | undefined; current; ) {
    if (typeof current.message === 'string' && current.message !== '') causes.push(current.message);
    current = current.cause as typeof current;
    if (causes.length > 4) break;
  }
  const informative = causes.filter((message) => message !== 'fetch failed');
  return informative.at(-1) ?? causes[0] ?? String(error);
}

function readProblem(response: Response, text: string): ProblemBody {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as ProblemBody;
  } catch {
    // not JSON: keep the text as the detail
  }
  return { status: response.status, detail: text || response.statusText };
}

export class Transport {
  readonly baseUrl: string;
  readonly environment: 'sandbox' | 'production';
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    if (!options || typeof options.apiKey !== 'string')
      throw new TypeError('new Ponte({ apiKey }) needs an API key');
    this.environment = environmentOfKey(options.apiKey);
    this.#apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URLS[this.environment]).replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  url(path: string, query?: Query): string {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async request<T>(request: ApiRequest): Promise<T> {
    const options = request.options ?? {};
    const maxRetries = options.maxRetries ?? this.#maxRetries;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.#apiKey}`,
      'user-agent': `ponte-sdk-node/${SDK_VERSION}`,
      ...options.headers,
    };
    if (request.method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
    let body: string | FormData | undefined;
    if (request.body instanceof FormData) {
      // multipart: fetch writes the content type with its boundary, and the form again on each retry
      body = request.body;
    } else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const url = this.url(request.path, request.query);

    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(options.timeoutMs ?? this.#timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      let response: Response;
      let text: string;
      try {
        response = await this.#fetch(url, { method: request.method, headers, body, signal });
        text = await response.text();
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const timedOut = timeout.aborted;
        if (attempt < maxRetries) {
          await sleep(backoffMs(attempt + 1), options.signal);
          continue;
        }
        const attempts = `${attempt + 1} attempt${attempt === 0 ? '' : 's'}`;
        throw new PonteConnectionError(
          timedOut
            ? `${request.method} ${request.path}: no answer from ${this.baseUrl} within ${options.timeoutMs ?? this.#timeoutMs} ms (${attempts})`
            : `${request.method} ${request.path}: could not reach ${this.baseUrl} (${connectionCause(error)}; ${attempts})`,
          { cause: error, timedOut },
        );
      }
      if (response.ok) return (text === '' ? undefined : JSON.parse(text)) as T;

      const problem = readProblem(response, text);
      if (retryableStatus(response.status) && attempt < maxRetries) {
        const after = retryAfterMs(response.headers.get('retry-after'));
        await sleep(Math.min(MAX_RETRY_AFTER_MS, after ?? backoffMs(attempt + 1)), options.signal);
        continue;
      }
      throw new PonteApiError(response.status, problem, response.headers);
    }
  }
}
