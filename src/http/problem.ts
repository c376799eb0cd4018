/**
 * Renders every non-2xx answer as application/problem+json (RFC 9457). Validation failures list one
 * entry per problem with a JSON pointer into the request; unknown failures are masked as a 500 that
 * carries only the request id. No answer ever includes a stack trace, SQL or driver message.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERRORS, type ErrorCode, type FieldError } from '../core/errors.ts';
import { AMOUNT_PATTERN } from '../core/money.ts';
import { trackRoutes } from './route-table.ts';
import { CURSOR_PATTERN, STARTING_AFTER_PATTERN, UUID_PATTERN } from './schemas.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

type AjvError = {
  instancePath: string;
  /** Set when the failure is in an object's key (`propertyNames`): the key at fault. */
  propertyName?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  /** The schema that failed (the validator runs verbose), read for its `x-expected` hint. */
  parentSchema?: { 'x-expected'?: string };
};

/** Keywords whose failure a field's `x-expected` hint explains better than the validator's words. */
const HINTED = new Set(['minLength', 'maxLength', 'pattern', 'format']);

const PART: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

function describe(error: AjvError): string {
  const expected = error.parentSchema?.['x-expected'];
  if (expected && HINTED.has(error.keyword)) return `must be ${expected}`;
  switch (error.keyword) {
    case 'type':
      return TYPE_NAMES[String(error.params.type)] ?? error.message ?? 'is of the wrong type';
    case 'minLength':
      return error.params.limit === 1
        ? 'must not be empty'
        : `must be at least ${String(error.params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(error.params.limit)} characters long`;
    case 'minItems':
      return `must list at least ${String(error.params.limit)} item${error.params.limit === 1 ? '' : 's'}`;
    case 'maxProperties':
      return `must have at most ${String(error.params.limit)} keys`;
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'format':
      return `must be a valid ${error.params.format === 'uuid' ? 'UUID' : error.params.format}`;
    case 'pattern':
      if (error.params.pattern === AMOUNT_PATTERN)
        return 'must be a positive amount with at most two decimals, such as "1500.00"';
      if (error.params.pattern === CURSOR_PATTERN) return 'must be a page number such as "2"';
      if (error.params.pattern === UUID_PATTERN) return 'must be a valid UUID';
      if (error.params.pattern === STARTING_AFTER_PATTERN)
        return 'must be a nextCursor from a previous answer';
      return `must match ${error.params.pattern}`;
    case 'enum':
      return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${String(error.params.allowedValue)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Types whose validator wording ("must be object") reads badly; the others read well as they are. */
const TYPE_NAMES: Record<string, string> = {
  object: 'must be a JSON object',
  array: 'must be a JSON array',
};

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Keywords whose error only summarises the errors of their subschemas, reported on their own. */
const SUMMARY_KEYWORDS = new Set(['anyOf', 'oneOf', 'if']);

export function validationErrors(errors: AjvError[], context: string | undefined): FieldError[] {
  const part = `/${PART[context ?? 'body'] ?? 'body'}`;
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors) {
    let pointer = part + error.instancePath;
    if (error.keyword === 'required') pointer += `/${escapePointer(String(error.params.missingProperty))}`;
    if (error.keyword === 'additionalProperties')
      pointer += `/${escapePointer(String(error.params.additionalProperty))}`;
    // A key that breaks `propertyNames` is pointed at itself; the summary error beside it adds nothing.
    if (error.keyword === 'propertyNames') continue;
    const key = error.propertyName !== undefined;
    if (key) pointer += `/${escapePointer(error.propertyName!)}`;
    // Union schemas report each failed branch, and a conditional (`if`) the branch it chose, besides the
    // errors within them; one entry per location is what a client can act on.
    if (SUMMARY_KEYWORDS.has(error.keyword) || seen.has(pointer)) continue;
    seen.add(pointer);
    out.push({ pointer, message: key ? `key ${describe(error)}` : describe(error) });
  }
  return out;
}

export function sendProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  code: ErrorCode,
  detail: string,
  options: { errors?: FieldError[] | undefined; extra?: Record<string, unknown> | undefined } = {},
): FastifyReply {
  const { status, title } = ERRORS[code];
  const body: Record<string, unknown> = {
    type: `urn:ponte:problem:${code}`,
    title,
    status,
    detail,
    code,
    requestId: request.id,
    ...options.extra,
  };
  if (options.errors && options.errors.length > 0) body.errors = options.errors;
  if (status === 401) reply.header('www-authenticate', 'Bearer');
  return reply.code(status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_request',
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * A serialization failure or a deadlock that outlived the driver's retries (src/db/postgres.ts): the
 * transaction was rolled back, nothing was applied, and the same request may simply be sent again.
 */
export function isConcurrencyConflict(error: unknown): boolean {
  const { code } = error as { code?: unknown };
  return code === '40001' || code === '40P01';
}

/**
 * The database could not be reached (refused, dropped, timed out, shutting down, out of connections):
 * a temporary condition the client may retry, answered 503 rather than as an internal error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_NODE_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, cannot connect now), 53300 (no
    // connection left: src/db/postgres.ts tried again first)
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      message,
    )
  );
}

/**
 * Failures the router meets before any route or hook runs (a path parameter over the router's length
 * limit, a malformed percent-encoding): answered as problems too, with the request id header.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  const detail =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter is too long to name anything here'
      : 'The request path is not a valid URL';
  return sendProblem(reply, request, 'invalid_request', detail, {
    errors: [{ pointer: '/path', message: 'is invalid' }],
  });
}

export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterS !== undefined) reply.header('retry-after', String(error.retryAfterS));
      return sendProblem(reply, request, error.code, error.message, {
        errors: error.errors,
        extra: error.extra,
      });
    }
    const fastifyError = error as FastifyError & { validationContext?: string };
    if (fastifyError.validation) {
      const errors = validationErrors(fastifyError.validation as AjvError[], fastifyError.validationContext);
      const where = PART[fastifyError.validationContext ?? 'body'] ?? 'body';
      // "The request headers are invalid", "The request body is invalid"
      const verb = where === 'headers' ? 'are' : 'is';
      return sendProblem(reply, request, 'invalid_request', `The request ${where} ${verb} invalid`, {
        errors,
      });
    }
    const frameworkCode = fastifyError.code ? FRAMEWORK_CODES[fastifyError.code] : undefined;
    if (frameworkCode === 'invalid_request') {
      return sendProblem(reply, request, 'invalid_request', 'The request body is not valid JSON', {
        errors: [{ pointer: '/body', message: 'must be a JSON object' }],
      });
    }
    const status = fastifyError.statusCode ?? 500;
    const code = frameworkCode ?? (status >= 400 && status < 500 ? BY_STATUS[status] : undefined);
    if (code) return sendProblem(reply, request, code, fastifyError.message);
    if (isConcurrencyConflict(error)) {
      request.log.warn({ err: error }, 'concurrent changes outlasted the retries');
      reply.header('retry-after', '1');
      return sendProblem(
        reply,
        request,
        'conflict',
        'The request met concurrent changes and was not applied; send it again',
      );
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '1');
      return sendProblem(
        reply,
        request,
        'service_unavailable',
        'The service is temporarily unavailable; retry shortly',
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      reply,
      request,
      'internal_error',
      'Something went wrong on our side; the request id identifies it',
    );
  });

  const routes = trackRoutes(app);
  // Before validation: a path whose own route lacks the method answers 405, even where a broader route
  // would take the request (and refuse the path's fixed segment as its parameter with a 400).
  app.addHook('onRequest', async (request, reply) => {
    const matched = request.routeOptions.url;
    if (matched === undefined || !matched.includes(':')) return;
    const path = request.url.split('?')[0] ?? '/';
    const allowed = routes.shadowedBy(path, matched);
    if (allowed === undefined || allowed.includes(request.method)) return;
    reply.header('allow', allowed.join(', '));
    return sendProblem(reply, request, 'method_not_allowed', `${request.method} is not allowed on ${path}`);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = routes.methodsFor(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('allow', allowed.join(', '));
      return sendProblem(reply, request, 'method_not_allowed', `${request.method} is not allowed on ${path}`);
    }
    return sendProblem(reply, request, 'not_found', `No route ${request.method} ${path}`);
  });
}
