/**
 * `Idempotency-Key` on every POST of the public API, as hooks, so routes
 * and services know nothing of it:
 *
 * - the header (1–255 characters) is added to every POST route's schema, so it is validated like any
 *   other input (400, pointer `/headers/idempotency-key`) and published in the OpenAPI document;
 * - preHandler (after authentication and validation) claims the key for the project, environment,
 *   method and route with one INSERT ... ON CONFLICT. A retry with the same fingerprint gets the first
 *   answer again with `Idempotent-Replayed: true`; another request under the same key gets 422
 *   `idempotency_key_reused`; a retry while the first request still runs gets 409 `conflict`;
 * - the answer is stored in the same transaction as the change it answers, so that no moment exists
 *   at which the change is committed and the key could still be run again (a process killed between
 *   the COMMIT and sending the answer would otherwise leave a locked key whose lease a retry outlives,
 *   and the retry would repeat the change). The claimed request runs its handler under a before-commit
 *   hook (src/db/commit-hooks.ts, an AsyncLocalStorage context that both drivers' `db.transaction`
 *   honour): when a transaction's work returns a value, the hook serialises it with the route's own
 *   response serializer for the route's success status, exactly as Fastify will send it, and writes
 *   it to the key with one UPDATE before COMMIT. A service whose transaction returns the resource it
 *   answers (the house pattern) is therefore covered without knowing of idempotency; one whose value
 *   is something else (ids, rows presented later) names its answer with `withAnswer`. The last such
 *   transaction of a request wins. The hook acts only until the request's answer is being sent, so work
 *   a handler leaves running (a payout submitted after the commit) writes nothing once onSend began;
 *   and should it commit a value the schema accepts before that, onSend still corrects the answer;
 * - every transaction of a claimed request, answer or not, checks before COMMIT that the request still
 *   holds the key, with an UPDATE that renews its lease and keeps the row locked until the COMMIT. A
 *   retry may take a key over once its lease has passed (the first request presumed dead); should the
 *   first request still be alive (waiting on a lock, say), its next commit finds the key taken, rolls
 *   back and answers 409 `conflict`, so one key never moves money twice. A takeover attempted while
 *   the first request's transaction holds the row waits for it, then finds the lease renewed or the
 *   answer stored;
 * - onSend compares what is actually sent with what was committed: when they are equal (the usual
 *   case) nothing more is written; otherwise (an error after the change, a route whose answer is not
 *   its transaction's value, a request without a transaction) it stores the answer sent, as before:
 *   2xx and 4xx answers are kept for 24 hours (a 4xx is the outcome of that request, and clients do
 *   not retry 4xx), except that an answer marked `Cache-Control: no-store` (one carrying a secret) is
 *   replayed for 10 minutes only, then answered 422 `idempotency_key_reused` and erased; a 5xx is not
 *   kept and the key is released, so a retry runs the request again, unless a change already
 *   committed with its answer (then that answer is what a retry gets). Requests refused before the
 *   handler could run (authentication, rate limit, schema validation) never take the key.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../core/clock.ts';
import { AppError } from '../core/errors.ts';
import { withBeforeCommit } from '../db/commit-hooks.ts';
import type { Database, Queryable } from '../db/types.ts';
import type { InstanceKeys } from '../lib/instance-keys.ts';
import { answerCipher, requestFingerprint } from './idempotency-fingerprint.ts';
import {
  claimKey,
  commitAnswer,
  findKey,
  holdKey,
  type IdempotencyScope,
  releaseKey,
  type StoredAnswer,
  storeAnswer,
} from './idempotency-repo.ts';
import { sendProblem } from './problem.ts';
import { problems } from './schemas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyClaim | null;
  }
  interface FastifyContextConfig {
    /** Reads a multipart body (the route answers the same upload again later) as fingerprintable content. */
    multipartContent?: (request: FastifyRequest) => Promise<unknown>;
  }
}

type IdempotencyClaim = {
  scope: IdempotencyScope;
  token: string;
  /** The answer written with the request's last committed transaction, in clear. */
  committed?: { status: number; headers: Record<string, string>; body: string };
  /**
   * A retry took the key over: no later transaction of this request may commit either (a creation run
   * again on its own after its batch rolled back, say), and the request answers nothing for the key.
   */
  lost?: boolean;
};

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** Headers that are part of an answer and come back with its replay (not request ids or rate limits). */
const KEPT_HEADERS = ['content-type', 'location', 'cache-control', 'content-language', 'link'];

const IdempotencyKeyHeader = Type.String({
  minLength: 1,
  maxLength: 255,
  description:
    'Makes the request safe to retry: within 24 hours the same key and request return the first answer ' +
    '(with `Idempotent-Replayed: true`); the same key with another request is refused with 422.',
});

/** Declares the header, and the answers it can cause (409 in flight, 422 reused), on every POST route. */
function addToSchema(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!methods.includes('POST')) return;
  if (!route.schema) route.schema = {};
  const schema = route.schema as {
    headers?: { properties?: Record<string, unknown> };
    response?: Record<string, unknown>;
  };
  if (schema.headers?.properties) {
    schema.headers.properties[IDEMPOTENCY_HEADER] ??= IdempotencyKeyHeader;
  } else if (!schema.headers) {
    schema.headers = Type.Object({ [IDEMPOTENCY_HEADER]: Type.Optional(IdempotencyKeyHeader) });
  }
  if (schema.response) schema.response = { ...problems(400, 409, 422), ...schema.response };
}

/** The route's one success status (2xx), whose serializer makes the answer; null when it has several. */
function successStatus(request: FastifyRequest): number | null {
  const response = (request.routeOptions.schema as { response?: Record<string, unknown> } | undefined)
    ?.response;
  const codes = Object.keys(response ?? {}).filter((code) => /^2\d\d$/.test(code));
  return codes.length === 1 ? Number(codes[0]) : null;
}

function keptHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

const sameHeaders = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([name, value]) => b[name] === value);

function replay(reply: FastifyReply, answer: StoredAnswer, body: string): FastifyReply {
  reply.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  reply.header(REPLAYED_HEADER, 'true');
  return reply.send(body);
}

/** Registers the hooks on a scope whose requests carry `request.tenant` (the partner API). */
export function registerIdempotency(
  app: FastifyInstance,
  deps: { db: Database; clock: Clock; instanceKeys: InstanceKeys },
): void {
  const { db, clock } = deps;
  const cipher = answerCipher(deps.instanceKeys.encryption);

  app.decorateRequest('idempotency', null);
  app.addHook('onRoute', addToSchema);

  // A callback hook: requests without a key to claim (every read) pass on without a promise.
  app.addHook('preHandler', (request, reply, done) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (request.method !== 'POST' || typeof key !== 'string' || !request.tenant) return done();
    claimOrAnswer(request, reply, key).then(() => done(), done);
  });

  /** Claims the request's key, or answers it: the stored answer, a conflict, or a reused key refused. */
  async function claimOrAnswer(request: FastifyRequest, reply: FastifyReply, key: string) {
    const scope: IdempotencyScope = {
      ...request.tenant,
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      key,
    };
    const readMultipart = request.routeOptions.config.multipartContent;
    const isMultipart = /^multipart\//i.test(request.headers['content-type'] ?? '');
    const fingerprint = requestFingerprint({
      method: request.method,
      path: request.url.split('?')[0]!,
      query: request.query,
      contentType: request.headers['content-type'],
      body: request.body,
      ...(isMultipart && readMultipart ? { multipartContent: await readMultipart(request) } : {}),
    });
    const token = randomUUID();
    // A key released or expired between the claim and the read is simply claimed again.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await claimKey(db, scope, fingerprint, token, clock())) {
        request.idempotency = { scope, token };
        return;
      }
      const existing = await findKey(db, scope, clock());
      if (!existing) continue;
      if (existing.fingerprint !== fingerprint) {
        return sendProblem(
          reply,
          request,
          'idempotency_key_reused',
          'This Idempotency-Key was already used with another request; use a new key for a new request',
        );
      }
      if (existing.answer) return replay(reply, existing.answer, cipher.open(existing.answer.body));
      if (existing.answerErased) {
        return sendProblem(
          reply,
          request,
          'idempotency_key_reused',
          'This request was answered, but its answer carried a secret shown once and is no longer replayed; ' +
            'read the resource it created instead, and use a new key for a new request',
        );
      }
      break;
    }
    reply.header('retry-after', '1');
    return sendProblem(
      reply,
      request,
      'conflict',
      'A request with this Idempotency-Key is still in progress; retry once it has answered',
    );
  }

  /**
   * Before each transaction of a claimed request commits: its value, as the route will send it, becomes
   * the key's answer in that same transaction. A value the route's success schema cannot serialise (a
   * transaction that returns nothing, or something other than the answer) writes nothing.
   */
  async function answerAtCommit(
    request: FastifyRequest,
    reply: FastifyReply,
    tx: Queryable,
    result: unknown,
  ) {
    const claim = request.idempotency;
    if (!claim) return;
    const answer = claim.lost ? null : answerOf(request, reply, result);
    const now = clock();
    const held =
      !claim.lost &&
      (answer
        ? await commitAnswer(tx, claim.scope, claim.token, { ...answer, body: cipher.seal(answer.body) }, now)
        : await holdKey(tx, claim.scope, claim.token, now));
    if (!held) {
      // A retry took the key over after the lease: it runs the request; this execution must not commit,
      // now or in any transaction it runs again.
      claim.lost = true;
      throw new AppError(
        'conflict',
        'A retry with this Idempotency-Key took this request over; read the answer the retry gets',
      );
    }
    if (answer) claim.committed = answer;
  }

  /** A transaction's value as the route sends it on success; null when the schema cannot serialise it. */
  function answerOf(request: FastifyRequest, reply: FastifyReply, result: unknown) {
    if (result === null || typeof result !== 'object') return null;
    const status = successStatus(request);
    if (status === null) return null;
    let body: string;
    try {
      body = reply.serializeInput(result as Record<string, unknown>, String(status)) as string;
    } catch {
      return null;
    }
    const headers = { ...keptHeaders(reply), 'content-type': 'application/json; charset=utf-8' };
    return { status, headers, body };
  }

  // Callback style, so that the handler (called from `done`) runs inside the before-commit context.
  app.addHook('preHandler', (request, reply, done) => {
    if (!request.idempotency || reply.sent) return done();
    withBeforeCommit((tx, result) => answerAtCommit(request, reply, tx, result), done);
  });

  // Nearly every answer holds no claim: a callback hook passes those on without a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.idempotency) return done(null, payload);
    settleClaim(request, reply, payload).then((stored) => done(null, stored), done);
  });

  async function settleClaim(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = request.idempotency!;
    request.idempotency = null;
    // the key is the retry's that took it over: this request neither stores nor releases anything
    if (claim.lost) return payload;
    const status = reply.statusCode;
    const storable = payload === null || payload === undefined || typeof payload === 'string';
    try {
      // a 409 with Retry-After (concurrent changes) applied nothing: like a 5xx, the retry runs again
      const retryable = status === 409 && reply.getHeader('retry-after') !== undefined;
      if (status >= 500 || status < 200 || !storable || retryable) {
        await releaseKey(db, claim.scope, claim.token);
      } else {
        const headers = keptHeaders(reply);
        const body = (payload as string | null | undefined) ?? '';
        const committed = claim.committed;
        // the answer committed with the change is the one sent: nothing more to write
        if (
          committed &&
          committed.status === status &&
          committed.body === body &&
          sameHeaders(committed.headers, headers)
        )
          return payload;
        await storeAnswer(db, claim.scope, claim.token, { status, headers, body: cipher.seal(body) });
      }
    } catch (err) {
      // The answer still goes out; the key stays locked until its lease ends, then a retry runs again.
      request.log.error({ err }, 'could not record the answer for an idempotency key');
    }
    return payload;
  }
}
