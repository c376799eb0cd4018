import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublicApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { gcra } from '../../src/http/rate-limit-store.ts';
import { individualBody } from '../helpers/factories.ts';
import { client, startTestServer, type TestServer } from '../helpers/server.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const redisReachable = await new Promise<boolean>((resolve) => {
  const socket = connect(6379, '127.0.0.1');
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});

/** A clock that moves only when the test says so. */
function manualClock() {
  let now = Date.UTC(2030, 0, 1);
  return {
    clock: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const SMALL_LIMIT = { PONTE_RATE_LIMIT_PER_SECOND: '1', PONTE_RATE_LIMIT_BURST: '3' };

describe('token bucket (GCRA)', () => {
  it('allows a burst of `burst` requests at once, then one per 1/rate seconds', () => {
    const policy = { perSecond: 10, burst: 5 };
    let tat: number | undefined;
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const step = gcra(tat, policy, 0);
      expect(step.decision.allowed).toBe(true);
      remaining.push(step.decision.remaining);
      tat = step.tat;
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const refused = gcra(tat, policy, 0);
    expect(refused.decision).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 100 });
    expect(gcra(tat, policy, 99).decision.allowed).toBe(false);
    expect(gcra(tat, policy, 100).decision).toMatchObject({ allowed: true, remaining: 0 });
    expect(gcra(tat, policy, 10_000).decision).toMatchObject({ allowed: true, remaining: 4 });
  });
});

let server: TestServer;
const time = manualClock();

beforeAll(async () => {
  server = await startTestServer({ env: SMALL_LIMIT, clock: time.clock, workers: false });
});
afterAll(() => server.close());

/** Another public app over the same database, as a second process would be, with other settings. */
function anotherInstance(config: Partial<Config>): Promise<FastifyInstance> {
  return buildPublicApp({ ...server.ctx, config: { ...server.ctx.config, ...config } }, 'production');
}

describe('rate limit per API key, in memory', () => {
  it('allows the burst, then answers 429 rate_limited with Retry-After and RateLimit headers', async () => {
    const api = client(server.production, (await server.newTenant()).productionKey);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await api.get('/customers');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['ratelimit-limit']).toBe('3');
      remaining.push(String(answer.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await api.get('/customers');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({ status: 429, code: 'rate_limited', title: 'Too many requests' });
    expect(refused.json().requestId).toBe(refused.headers['x-request-id']);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-reset']).toBe('3');
    expect(refused.headers['ratelimit-policy']).toBe('3;w=3');
  });

  it('refills at the configured rate', async () => {
    const api = client(server.production, (await server.newTenant()).productionKey);
    for (let i = 0; i < 3; i++) await api.get('/customers');
    expect((await api.get('/customers')).statusCode).toBe(429);
    time.advance(999);
    expect((await api.get('/customers')).statusCode).toBe(429);
    time.advance(1);
    expect((await api.get('/customers')).statusCode).toBe(200);
    expect((await api.get('/customers')).statusCode).toBe(429);
    time.advance(3_000);
    const full = await api.get('/customers');
    expect(full.headers['ratelimit-remaining']).toBe('2');
  });

  it('counts each API key on its own', async () => {
    const tenant = await server.newTenant();
    const production = client(server.production, tenant.productionKey);
    for (let i = 0; i < 3; i++) await production.get('/customers');
    expect((await production.get('/customers')).statusCode).toBe(429);
    const sandbox = client(server.sandbox, tenant.sandboxKey);
    expect((await sandbox.get('/customers')).statusCode).toBe(200);
    const other = client(server.production, (await server.newTenant()).productionKey);
    expect((await other.get('/customers')).statusCode).toBe(200);
  });

  it('documents the 429 answer on every operation of the partner API', async () => {
    const doc = (await server.production.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = Object.entries(doc.paths as Record<string, Record<string, { responses: object }>>);
    expect(operations.length).toBeGreaterThan(0);
    for (const [path, ops] of operations) {
      for (const [method, op] of Object.entries(ops)) {
        expect(Object.keys(op.responses), `${method} ${path}`).toContain('429');
      }
    }
  });

  it('leaves unauthenticated requests and health checks out of the count', async () => {
    const health = await server.production.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['ratelimit-limit']).toBeUndefined();
    const unauthorized = await client(server.production, 'sk_live_nope').get('/customers');
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers['ratelimit-limit']).toBeUndefined();
  });

  it('a refused request does not take its Idempotency-Key', async () => {
    const api = client(server.production, (await server.newTenant()).productionKey);
    for (let i = 0; i < 3; i++) await api.get('/customers');
    const body = individualBody();
    const headers = { 'idempotency-key': 'limited-then-created' };
    expect((await api.post('/customers', body, headers)).statusCode).toBe(429);
    time.advance(1_000);
    const created = await api.post('/customers', body, headers);
    expect(created.statusCode).toBe(201);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('rate limit when Redis does not answer', () => {
  it('lets requests through rather than failing them', async () => {
    const app = await anotherInstance({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const api = client(app, (await server.newTenant()).productionKey);
      for (let i = 0; i < 5; i++) expect((await api.get('/customers')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe.runIf(redisReachable)('rate limit per API key, shared through Redis', () => {
  let first: FastifyInstance;
  let second: FastifyInstance;

  beforeAll(async () => {
    // generous: a loaded machine must not turn a slow answer into a skipped check
    const redis = { redisUrl: REDIS_URL, redisTimeoutMs: 10_000 };
    [first, second] = await Promise.all([anotherInstance(redis), anotherInstance(redis)]);
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  it('two app instances share one limit per key', async () => {
    const key = (await server.newTenant()).productionKey;
    const one = client(first, key);
    const two = client(second, key);
    expect((await one.get('/customers')).headers['ratelimit-remaining']).toBe('2');
    expect((await two.get('/customers')).headers['ratelimit-remaining']).toBe('1');
    expect((await one.get('/customers')).headers['ratelimit-remaining']).toBe('0');
    const refused = await two.get('/customers');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBe('1');
    expect((await one.get('/customers')).statusCode).toBe(429);
    time.advance(1_000);
    expect((await two.get('/customers')).statusCode).toBe(200);
    expect((await one.get('/customers')).statusCode).toBe(429);
  });
});
