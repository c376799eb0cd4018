/** Failures the client raises: an answer that is not 2xx, or no answer at all. */
import type { ErrorCode } from './types.js';

/** The RFC 9457 problem body every non-2xx answer of the API carries. */
export type ProblemBody = {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: ErrorCode;
  requestId?: string;
  errors?: { pointer: string; message: string }[];
  [extra: string]: unknown;
};

export class PonteError extends Error {
  override name = 'PonteError';
}

/** The API answered with a non-2xx status; `body` is the problem it sent. */
export class PonteApiError extends PonteError {
  override name = 'PonteApiError';
  readonly status: number;
  /**
   * The problem's `code`, one of the closed set the API documents; `http_<status>` when an answer
   * carried no problem body (a proxy's error page, for instance).
   */
  readonly code: ErrorCode | `http_${number}`;
  readonly requestId: string | undefined;
  readonly body: ProblemBody;
  readonly headers: Headers;

  constructor(status: number, body: ProblemBody, headers: Headers) {
    const code: ErrorCode | `http_${number}` = typeof body.code === 'string' ? body.code : `http_${status}`;
    super(`${status} ${code}: ${body.detail ?? body.title ?? 'request failed'}`);
    this.status = status;
    this.code = code;
    this.requestId =
      typeof body.requestId === 'string' ? body.requestId : (headers.get('x-request-id') ?? undefined);
    this.body = body;
    this.headers = headers;
  }
}

/** No answer arrived: the connection failed, was reset, or the request timed out. */
export class PonteConnectionError extends PonteError {
  override name = 'PonteConnectionError';
  readonly timedOut: boolean;

  constructor(message: string, options: { cause?: unknown; timedOut?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.timedOut = options.timedOut ?? false;
  }
}

/** A webhook whose signature or timestamp does not check out. */
export class PonteWebhookVerificationError extends PonteError {
  override name = 'PonteWebhookVerificationError';
}
