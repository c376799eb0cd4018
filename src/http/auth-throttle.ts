/**
 * Throttles failed authentication per client address: an unknown or mistyped API key, a wrong operator
 * token, a forged or expired hosted-page link, a PIX notification with a bad signature. Each failure
 * takes a token from the address's bucket (`burst` failures at once, refilled at `perMinute`); once it is
 * empty the address gets 429 `rate_limited` with `Retry-After` for every request until a token is back,
 * before any key is looked up or body read. Successful requests cost nothing.
 *
 * Buckets live where the API key rate limits live (Redis when configured, shared by every process; else
 * process memory). The client address is the connection's peer address.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../core/clock.ts';
import { sendProblem } from './problem.ts';
import { createRateLimitStore } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    authFailure: boolean;
  }
}

/** Marks a request as a failed authentication that answers other than 401 (an unknown hosted-page link). */
export function markAuthFailure(request: FastifyRequest): void {
  request.authFailure = true;
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

  // A callback hook: the check is a lookup in memory, so an address not blocked costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    const until = blockedUntil.get(request.ip);
    if (until === undefined) return done();
    const now = deps.clock().getTime();
    if (until <= now) {
      blockedUntil.delete(request.ip);
      return done();
    }
    const retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
    reply.header('retry-after', String(retryAfter));
    sendProblem(
      reply,
      request,
      'rate_limited',
      `Too many failed authentication attempts from this address; retry in ${retryAfter} s`,
    );
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
