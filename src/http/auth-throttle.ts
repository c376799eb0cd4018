/**
 * Throttles failed authentication per client address: an unknown or mistyped API key, a wrong operator
 * token, a forged or expired hosted-page link, a PIX notification with a bad signature. Each failure
 * takes a token from the address's bucket (`burst` failures at once, refilled at `perMinute`); once it is
 * empty the address is blocked until a token is back. Successful requests cost nothing.
 *
 * A blocked address still has its requests that carry a valid API key or operator token served: many
 * clients share one address (a NAT, a cloud egress), and one misconfigured worker must not take its
 * neighbours' good traffic down with it; those requests keep the per-key rate limit. What a blocked
 * address cannot do is fail again: a bearer credential that does not authenticate is answered 429
 * `rate_limited` with `Retry-After` instead of 401 (a malformed or mistyped one before any lookup, an
 * unknown one after one indexed read, then from the key cache), and every request that carries no
 * bearer credential (a hosted-page link, a page, an unknown path) is answered 429 before its body is read.
 *
 * Buckets live where the API key rate limits live (Redis when configured, shared by every process; else
 * process memory). The client address is the connection's peer address.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../core/clock.ts';
import { AppError } from '../core/errors.ts';
import { sendProblem } from './problem.ts';
import { createRateLimitStore } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    authFailure: boolean;
    /** Seconds until this request's address may fail authentication again; 0 when it is not blocked. */
    authBlockedFor: number;
    /** A bearer credential (API key, operator token) of this request was accepted. */
    authenticated: boolean;
  }
}

const blockedDetail = (seconds: number) =>
  `Too many failed authentication attempts from this address; retry in ${seconds} s`;

/** Marks a request as a failed authentication that answers other than 401 (an unknown hosted-page link). */
export function markAuthFailure(request: FastifyRequest): void {
  request.authFailure = true;
}

/** Marks a request whose bearer credential was accepted: served even from a blocked address. */
export function markAuthenticated(request: FastifyRequest): void {
  request.authenticated = true;
}

/**
 * The error a failed bearer authentication answers: the authentication's own (401) while the address
 * may still fail, 429 `rate_limited` with `Retry-After` once it is blocked.
 */
export function authenticationFailed(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
): AppError {
  const seconds = request.authBlockedFor;
  if (!seconds) return error;
  reply.header('retry-after', String(seconds));
  return new AppError('rate_limited', blockedDetail(seconds));
}

/** Addresses blocked until a moment, remembered in process so a blocked address costs no store call. */
const MAX_BLOCKED = 100_000;

export function registerAuthThrottle(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'authFailures' | 'redisUrl' | 'redisTimeoutMs'>; clock: Clock },
): void {
  const { perMinute, burst } = deps.config.authFailures;
  const policy = { perSecond: perMinute / 60, burst };
  const store = createRateLimitStore(deps.config, app.log);
  const blockedUntil = new Map<string, number>();
  app.addHook('onClose', async () => store.close());
  app.decorateRequest('authFailure', false);
  app.decorateRequest('authBlockedFor', 0);
  app.decorateRequest('authenticated', false);

  // A callback hook: the check is a lookup in memory, so an address not blocked costs no promise. A
  // blocked address's request goes on to its authentication (which answers 429 rather than 401 if it
  // fails, see `authenticationFailed`); the check below refuses it if nothing authenticated it.
  app.addHook('onRequest', (request, _reply, done) => {
    const until = blockedUntil.get(request.ip);
    if (until === undefined) return done();
    const now = deps.clock().getTime();
    if (until <= now) {
      blockedUntil.delete(request.ip);
      return done();
    }
    request.authBlockedFor = Math.max(1, Math.ceil((until - now) / 1000));
    done();
  });
  // After every onRequest hook (authentication included), before the body is read.
  app.addHook('preParsing', (request, reply, _payload, done) => {
    const seconds = request.authBlockedFor;
    if (!seconds || request.authenticated) return done();
    reply.header('retry-after', String(seconds));
    sendProblem(reply, request, 'rate_limited', blockedDetail(seconds));
  });

  async function countFailure(request: FastifyRequest) {
    const now = deps.clock().getTime();
    try {
      const decision = await store.take(`auth-failures:${request.ip}`, policy, now);
      if (decision.allowed) return;
      if (blockedUntil.size >= MAX_BLOCKED) {
        for (const [address, until] of blockedUntil) if (until <= now) blockedUntil.delete(address);
        if (blockedUntil.size >= MAX_BLOCKED) blockedUntil.delete(blockedUntil.keys().next().value!);
      }
      blockedUntil.set(request.ip, now + decision.retryAfterMs);
    } catch (err) {
      request.log.warn({ err }, 'failed authentication not counted: the store did not answer');
    }
  }
  // A callback hook: successful requests (nearly all) cost no promise here.
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode !== 401 && !request.authFailure) return done();
    void countFailure(request).finally(done);
  });
}
