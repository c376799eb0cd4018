/**
 * The closed set of error codes the API answers with. Each maps, checked at
 * compile time, to one HTTP status and title; `AppError` carries a code and is rendered once, by the
 * problem+json error handler.
 */
export const ERRORS = {
  invalid_request: { status: 400, title: 'Invalid request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  environment_mismatch: { status: 401, title: 'API key of another environment' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict' },
  customer_exists: { status: 409, title: 'Customer already exists' },
  customer_not_approved: { status: 409, title: 'Customer not approved' },
  limit_request_in_review: { status: 409, title: 'Limit request already in review' },
  invalid_state_transition: { status: 409, title: 'Invalid state transition' },
  limit_exceeded: { status: 422, title: 'Limit exceeded' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  rate_limited: { status: 429, title: 'Too many requests' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  insufficient_funds: { status: 422, title: 'Insufficient funds' },
  bank_account_not_verified: { status: 409, title: 'Bank account not verified' },
  exchange_rate_expired: { status: 409, title: 'Exchange rate expired' },
  exchange_rate_used: { status: 409, title: 'Exchange rate already used' },
  compliance_hold: { status: 409, title: 'On compliance hold' },
  sanctioned_address: { status: 422, title: 'Sanctioned address' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  rates_unavailable: { status: 503, title: 'Rates unavailable' },
  rate_out_of_band: { status: 422, title: 'Rate out of band' },
  internal_error: { status: 500, title: 'Internal error' },
  // business customers (KYB), terms and documents through the API
  customer_not_business: { status: 422, title: 'Not a business customer' },
  ownership_exceeded: { status: 422, title: 'Ownership above 100%' },
  ownership_cycle: { status: 422, title: 'Ownership cycle' },
  customer_approved: { status: 409, title: 'Customer already approved' },
  requirements_not_met: { status: 409, title: 'Requirements not met' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** One problem with one part of the request, located by a JSON pointer (`/body/...`, `/query/...`). */
export type FieldError = { pointer: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  readonly extra: Record<string, unknown> | undefined;
  /** Seconds after which the same request may succeed (answered as `Retry-After`). */
  readonly retryAfterS: number | undefined;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { errors?: FieldError[]; extra?: Record<string, unknown>; retryAfterS?: number } = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.errors = options.errors;
    this.extra = options.extra;
    this.retryAfterS = options.retryAfterS;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);

/** A 400 about a single field of the body. */
export const invalidField = (pointer: string, message: string, detail = 'The request body is invalid') =>
  new AppError('invalid_request', detail, { errors: [{ pointer, message }] });
