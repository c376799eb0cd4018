/**
 * Rate limit per API key: a token bucket of `burst` requests refilled at
 * `perSecond` (defaults 200 and 100). Every answer to an authenticated request carries `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the bucket is full) and `RateLimit-Policy`;
 * a refused request gets 429 `rate_limited` with `Retry-After`.
 *
 * Buckets live in Redis when REDIS_URL is set (shared by every process), else in process memory. If
 * Redis cannot answer, requests are let through and the failure is logged: a rate limiter that fails
 * closed would turn a cache outage into an API outage.
 *
 * Why not @fastify/rate-limit: it counts fixed windows, which cannot express a steady rate with a
 * separate burst and lets twice the limit through across a window edge; GCRA is exact and needs one
 * value per key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../core/clock.ts';
import { metrics } from './metrics.ts';
import { sendProblem } from './problem.ts';
import { memoryStore, type RateDecision, type RateLimitStore, redisStore } from './rate-limit-store.ts';
import { problems } from './schemas.ts';

const ERROR_LOG_INTERVAL_MS = 10_000;

export function createRateLimitStore(
  config: Pick<Config, 'redisUrl' | 'redisTimeoutMs'>,
  log: { warn(obj: unknown, msg: string): void },
): RateLimitStore {
  if (!config.redisUrl) return memoryStore();
  let lastLogged = 0;
  return redisStore(config.redisUrl, {
    timeoutMs: config.redisTimeoutMs,
    onError(err) {
      const now = Date.now();
      if (now - lastLogged < ERROR_LOG_INTERVAL_MS) return;
      lastLogged = now;
      log.warn({ err }, 'rate limit store unavailable; requests are not limited meanwhile');
    },
  });
}

/**
 * Registers the limit on a scope whose requests carry `request.apiKeyId` (after API key authentication).
 * The store is closed with the app.
 */
export function registerRateLimit(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'rateLimit' | 'redisUrl' | 'redisTimeoutMs'>; clock: Clock },
): void {
  const policy = deps.config.rateLimit;
  const store = createRateLimitStore(deps.config, app.log);
  const policyHeader = `${policy.burst};w=${Math.max(1, Math.ceil(policy.burst / policy.perSecond))}`;
  app.addHook('onClose', async () => store.close());
  // Every limited route can answer 429: say so in its schema (and so in the OpenAPI document).
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { response?: Record<string, unknown> } | undefined;
    if (schema?.response) schema.response = { ...problems(429), ...schema.response };
  });

  const apply = (request: FastifyRequest, reply: FastifyReply, decision: RateDecision) => {
    reply.header('ratelimit-limit', String(decision.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    reply.header('ratelimit-reset', String(Math.max(0, Math.ceil(decision.resetMs / 1000))));
    reply.header('ratelimit-policy', policyHeader);
    if (decision.allowed) return undefined;
    metrics.rateLimited.inc();
    const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    reply.header('retry-after', String(retryAfter));
    return sendProblem(
      reply,
      request,
      'rate_limited',
      `Too many requests for this API key (${policy.perSecond} per second, bursts of ${policy.burst}); retry in ${retryAfter} s`,
    );
  };

  // A callback hook: with buckets in process memory the decision is taken without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.apiKeyId) return done();
    const now = deps.clock().getTime();
    if (store.takeNow) {
      if (apply(request, reply, store.takeNow(request.apiKeyId, policy, now)) === undefined) done();
      return;
    }
    store.take(request.apiKeyId, policy, now).then(
      (decision) => {
        if (apply(request, reply, decision) === undefined) done();
      },
      (err) => {
        request.log.warn({ err }, 'rate limit not checked: the store did not answer');
        done();
      },
    );
  });
}
