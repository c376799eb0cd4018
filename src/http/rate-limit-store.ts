/**
 * Token buckets per API key, as GCRA (the generic cell rate algorithm): a bucket is one number, the
 * "theoretical arrival time" (TAT) at which it would be full again. Each request moves TAT one emission
 * interval (1 / rate) forward; a request is refused when that would put TAT more than `burst`
 * intervals ahead of now. This is a token bucket of capacity `burst` refilled at `rate` per second,
 * stored in one value with no background refill.
 *
 * Two stores: in process memory (one process), and Redis (several processes share each bucket; the
 * decision runs in one Lua script, so it is atomic across processes).
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

// ioredis is loaded only when Redis is configured: a process without it does not pay its start-up cost.
const load = createRequire(import.meta.url);

export type RateLimitPolicy = { perSecond: number; burst: number };

export type RateDecision = {
  allowed: boolean;
  limit: number;
  /** Requests that could be made right now. */
  remaining: number;
  /** Milliseconds until the bucket is full again. */
  resetMs: number;
  /** When refused: milliseconds until one request is allowed. */
  retryAfterMs: number;
};

export interface RateLimitStore {
  take(bucket: string, policy: RateLimitPolicy, nowMs: number): Promise<RateDecision>;
  /** The same step answered at once, for a store in process memory (absent when it needs a round trip). */
  takeNow?(bucket: string, policy: RateLimitPolicy, nowMs: number): RateDecision;
  close(): Promise<void>;
}

const interval = (policy: RateLimitPolicy) => 1000 / policy.perSecond;

/** The GCRA step on a bucket's stored TAT (undefined: a full bucket). Returns the decision and new TAT. */
export function gcra(
  storedTat: number | undefined,
  policy: RateLimitPolicy,
  now: number,
): { decision: RateDecision; tat: number } {
  const step = interval(policy);
  const tat = Math.max(storedTat ?? now, now);
  const next = tat + step;
  const allowAt = next - policy.burst * step;
  if (allowAt > now) {
    return {
      tat,
      decision: {
        allowed: false,
        limit: policy.burst,
        remaining: 0,
        resetMs: tat - now,
        retryAfterMs: allowAt - now,
      },
    };
  }
  return {
    tat: next,
    decision: {
      allowed: true,
      limit: policy.burst,
      remaining: Math.floor((now - allowAt) / step + 1e-9),
      resetMs: next - now,
      retryAfterMs: 0,
    },
  };
}

export function memoryStore(maxBuckets = 100_000): RateLimitStore {
  const buckets = new Map<string, number>();
  function takeNow(bucket: string, policy: RateLimitPolicy, now: number): RateDecision {
    const { decision, tat } = gcra(buckets.get(bucket), policy, now);
    if (decision.allowed) {
      if (buckets.size >= maxBuckets && !buckets.has(bucket)) {
        // Full buckets (TAT in the past) carry no information: drop them first.
        for (const [name, value] of buckets) if (value <= now) buckets.delete(name);
        if (buckets.size >= maxBuckets) buckets.clear();
      }
      buckets.set(bucket, tat);
    }
    return decision;
  }
  return {
    takeNow,
    take: async (bucket, policy, now) => takeNow(bucket, policy, now),
    async close() {
      buckets.clear();
    },
  };
}

/** The same step as `gcra`, atomically in Redis. Returns {allowed, tat - now, allowAt - now} in µs. */
const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
local step = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or ARGV[1])
if tat < now then tat = now end
local nextTat = tat + step
local allowAt = nextTat - burst * step
if allowAt > now then
  return {0, math.floor((tat - now) * 1000), math.ceil((allowAt - now) * 1000)}
end
-- kept a minute past the moment the bucket is full again: a missing key and a full bucket are the
-- same, and the margin absorbs any skew between the callers' clocks and Redis's
redis.call('SET', KEYS[1], string.format('%.3f', nextTat), 'PX', math.ceil(nextTat - now) + 60000)
return {1, math.floor((nextTat - now) * 1000), math.floor((allowAt - now) * 1000)}
`;

type GcraRedis = Redis & {
  ponteGcra(key: string, now: string, step: string, burst: string): Promise<[number, number, number]>;
};

export function redisStore(
  url: string,
  options: { prefix?: string; timeoutMs?: number; onError?: (err: unknown) => void } = {},
): RateLimitStore {
  const prefix = options.prefix ?? 'ponte:ratelimit:';
  const timeoutMs = options.timeoutMs ?? 500;
  const { Redis: RedisClient } = load('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(url, {
    // A rate limiter must never hold a request up: no queueing while disconnected, short timeouts.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 2_000),
  }) as GcraRedis;
  redis.on('error', (err) => options.onError?.(err));
  redis.defineCommand('ponteGcra', { numberOfKeys: 1, lua: GCRA_SCRIPT });
  // Requests arriving while the first connection is being made wait for it (at most the timeout, and
  // not at all once Redis has refused it); after that, a lost connection fails fast instead of queueing.
  let firstConnection: Promise<void> | null = new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('error', refused);
      firstConnection = null;
      resolve();
    };
    const refused = (err: { code?: string }) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND') done();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    redis.once('ready', done);
    redis.once('end', done);
    redis.on('error', refused);
  });
  return {
    async take(bucket, policy, now) {
      if (firstConnection) await firstConnection;
      const step = interval(policy);
      const [allowed, tatAheadUs, allowAtUs] = await redis.ponteGcra(
        prefix + bucket,
        String(now),
        String(step),
        String(policy.burst),
      );
      const tatAhead = tatAheadUs / 1000;
      const allowAt = allowAtUs / 1000;
      return allowed === 1
        ? {
            allowed: true,
            limit: policy.burst,
            remaining: Math.floor(-allowAt / step + 1e-9),
            resetMs: tatAhead,
            retryAfterMs: 0,
          }
        : { allowed: false, limit: policy.burst, remaining: 0, resetMs: tatAhead, retryAfterMs: allowAt };
    },
    async close() {
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}
