/** Failures the client raises: an answer that is not 2xx, or no answer at all. */
import type { ErrorCode, Problem } from './types.js';

type ProblemCommon = {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  requestId?: string;
  errors?: { pointer: string; message: string }[];
  /** Fields a newer API may add: ignore what you do not know. */
  [extra: string]: unknown;
};

/**
 * The fields a problem carries beyond the common ones, per code, typed from the API's document (its
 * `Problem` schema describes each). A code not listed carries none.
 */
export type ProblemFields = {
  /** The customer that already has this taxId (absent only if it could not be read). */
  customer_exists: Pick<Problem, 'customerId'>;
  limit_exceeded: Required<Pick<Problem, 'limit' | 'max' | 'remaining'>> & Pick<Problem, 'used'>;
  /** `currency` and `balance` for a customer's balance; `available` for the wallets a send draws from. */
  insufficient_funds: Pick<Problem, 'currency' | 'balance' | 'available'>;
  compliance_hold: Required<Pick<Problem, 'holdReason' | 'subjectType'>>;
};

/** The problem body of one code, with that code's own fields. */
export type ProblemOf<C extends ErrorCode> = ProblemCommon & { code: C } & (C extends keyof ProblemFields
    ? ProblemFields[C]
    : unknown);

/**
 * The RFC 9457 problem body every non-2xx answer of the API carries: narrow it by `code` to read that
 * code's fields (`if (body.code === 'customer_exists') body.customerId`), or use `PonteApiError.is`.
 * An answer that carried no problem (a proxy's error page) has no `code`.
 */
export type ProblemBody =
  | { [C in ErrorCode]: ProblemOf<C> }[ErrorCode]
  | (ProblemCommon & { code?: undefined });

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

  /**
   * Whether the API answered with this code; narrows `body` to that code's fields:
   * `if (error.is('customer_exists')) use(error.body.customerId)`.
   */
  is<C extends ErrorCode>(code: C): this is PonteApiError & { code: C; body: ProblemOf<C> } {
    return this.code === code;
  }

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
