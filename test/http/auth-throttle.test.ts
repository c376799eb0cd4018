/**
 * Failed authentication cannot be tried without limit: failures are counted per client address, and an
 * address past its budget is answered 429 for every request that does not authenticate, while requests
 * with a valid key from that address are still served. The bootstrap operator token
 * must be long, and the API key cache cannot be emptied by a flood of unknown keys.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublicApp } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { Executor } from '../../src/db/types.ts';
import { generateApiKey, parseApiKey } from '../../src/lib/api-key.ts';
import { ApiKeyCache } from '../../src/modules/projects/key-cache.ts';
import { individualBody } from '../helpers/factories.ts';
import { eventually, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const redisReachable = await new Promise<boolean>((resolve) => {
  const socket = connect(6379, '127.0.0.1');
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});

const BURST = 5;

let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  server = await startTestServer({
    workers: false,
    env: {
      PONTE_AUTH_FAILURE_BURST: String(BURST),
      PONTE_AUTH_FAILURES_PER_MINUTE: '1',
    },
  });
  tenant = await server.newTenant();
}, 180_000);
afterAll(() => server.close());

let nextAddress = 1;
const freshAddress = () => `198.51.100.${nextAddress++}`;

const unknownKey = () => generateApiKey('sandbox').key;

function sandboxGet(remoteAddress: string, key: string) {
  return server.sandbox.inject({
    method: 'GET',
    url: '/customers',
    remoteAddress,
    headers: { authorization: `Bearer ${key}` },
  });
}

describe('failed authentication is throttled per client address', () => {
  it('answers 429 to an address past its budget of unknown API keys, and not to others', async () => {
    const address = freshAddress();
    for (let i = 0; i < BURST; i++) expect((await sandboxGet(address, unknownKey())).statusCode).toBe(401);
    // the failure that finds the budget empty is still answered, then the address waits
    expect((await sandboxGet(address, unknownKey())).statusCode).toBe(401);
    const blocked = await sandboxGet(address, unknownKey());
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(blocked.json().code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // no key, a malformed key, a key of the other environment: each answered 429 while blocked
    const noKey = await server.sandbox.inject({ method: 'GET', url: '/customers', remoteAddress: address });
    expect(noKey.statusCode).toBe(429);
    expect((await sandboxGet(address, 'sk_sandbox_nope')).statusCode).toBe(429);
    expect((await sandboxGet(address, tenant.productionKey)).statusCode).toBe(429);
    // another address is not affected
    expect((await sandboxGet(freshAddress(), unknownKey())).statusCode).toBe(401);
    expect((await sandboxGet(freshAddress(), tenant.sandboxKey)).statusCode).toBe(200);
  });

  it('serves requests with a valid API key from an address that bad traffic has blocked', async () => {
    const address = freshAddress();
    const statuses = { bad: [] as number[], good: [] as number[] };
    // one misconfigured worker and one good one behind the same address, their requests interleaved
    for (let i = 0; i < 4 * BURST; i++) {
      statuses.bad.push((await sandboxGet(address, unknownKey())).statusCode);
      statuses.good.push((await sandboxGet(address, tenant.sandboxKey)).statusCode);
    }
    expect(statuses.good).toEqual(statuses.good.map(() => 200));
    expect(statuses.bad).toEqual(statuses.bad.map((_, i) => (i <= BURST ? 401 : 429)));
    // the good key keeps its own rate limit (and the headers that say so)
    const good = await sandboxGet(address, tenant.sandboxKey);
    expect(good.statusCode).toBe(200);
    expect(good.headers['ratelimit-limit']).toBeDefined();
    // a write from the blocked address with a good key goes through whole
    const created = await server.sandbox.inject({
      method: 'POST',
      url: '/customers',
      remoteAddress: address,
      headers: { authorization: `Bearer ${tenant.sandboxKey}` },
      payload: individualBody(),
    });
    expect(created.statusCode).toBe(201);
  });

  it('counts wrong operator tokens, and serves the right one from the blocked address', async () => {
    const address = freshAddress();
    const attempt = (token: string) =>
      server.operator.inject({
        method: 'GET',
        url: '/operator/verifications',
        remoteAddress: address,
        headers: { authorization: `Bearer ${token}` },
      });
    for (let i = 0; i <= BURST; i++) expect((await attempt(`${server.operatorToken}x`)).statusCode).toBe(401);
    const blocked = await attempt(`${server.operatorToken}x`);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt(`op_${'a'.repeat(40)}`)).statusCode).toBe(429);
    expect((await attempt(server.operatorToken)).statusCode).toBe(200);
  });

  it('counts forged hosted-page links', async () => {
    const address = freshAddress();
    const open = (headers: Record<string, string> = {}) =>
      server.sandbox.inject({ method: 'GET', url: '/verify/forged.link', remoteAddress: address, headers });
    for (let i = 0; i <= BURST; i++) expect((await open()).statusCode).toBe(404);
    expect((await open()).statusCode).toBe(429);
    // a valid API key does not open the way to pages that do not take one
    expect((await open({ authorization: `Bearer ${tenant.sandboxKey}` })).statusCode).toBe(429);
  });
});

describe.runIf(redisReachable)('failed authentication throttled through Redis, shared by processes', () => {
  let first: FastifyInstance;
  let second: FastifyInstance;

  beforeAll(async () => {
    // generous: a loaded machine must not turn a slow answer into a skipped count
    const config = { ...server.ctx.config, redisUrl: REDIS_URL, redisTimeoutMs: 10_000 };
    const build = () => buildPublicApp({ ...server.ctx, config }, 'sandbox');
    [first, second] = await Promise.all([build(), build()]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('blocks an address on every process, and still serves its valid keys on every process', async () => {
    // an address of its own in every run: Redis outlives the test
    const address = `2001:db8:${randomBytes(6).toString('hex').match(/..../g)!.join(':')}::1`;
    const get = (app: FastifyInstance, key: string) =>
      app.inject({
        method: 'GET',
        url: '/customers',
        remoteAddress: address,
        headers: { authorization: `Bearer ${key}` },
      });
    // the budget spent on the first process (each failure counted once its answer is sent)
    for (let i = 0; i <= BURST; i++) {
      expect((await get(first, unknownKey())).statusCode).toBe(401);
      expect((await get(first, tenant.sandboxKey)).statusCode).toBe(200);
    }
    await eventually(
      () => get(first, unknownKey()),
      (answer) => answer.statusCode === 429,
    );
    expect((await get(first, tenant.sandboxKey)).statusCode).toBe(200);
    // the second process finds the shared bucket empty on its first failure, then blocks too
    await eventually(
      () => get(second, unknownKey()),
      (answer) => answer.statusCode === 429,
    );
    expect((await get(second, tenant.sandboxKey)).statusCode).toBe(200);
    expect((await get(first, tenant.sandboxKey)).statusCode).toBe(200);
  });
});

describe('the bootstrap operator token', () => {
  it('must be at least 32 characters', () => {
    expect(() => loadConfig({ PONTE_OPERATOR_TOKEN: 'changeme' })).toThrow(ConfigError);
    expect(() => loadConfig({ PONTE_OPERATOR_TOKEN: 'x'.repeat(31) })).toThrow(/at least 32 characters/);
    expect(loadConfig({ PONTE_OPERATOR_TOKEN: 'x'.repeat(32) }).operatorToken).toBe('x'.repeat(32));
  });
});

describe('the API key cache', () => {
  it('keeps a real key cached through a flood of unknown keys', async () => {
    let lookups = 0;
    const counting: Executor = {
      query: (text, params) => {
        lookups++;
        return server.ctx.db.query(text, params);
      },
    };
    // small bounds, so that the flood is ten times what the cache holds
    const cache = new ApiKeyCache(counting, 60_000, Date.now, { known: 100, unknown: 100 });
    const real = parseApiKey(tenant.sandboxKey)!.hash;
    expect(await cache.resolve(real)).toMatchObject({ projectId: tenant.projectId });
    // more unknown keys than the whole cache holds, known and unknown together, a few at a time
    const unknownHashes = Array.from({ length: 1_001 }, () => randomBytes(32).toString('hex'));
    for (let i = 0; i < unknownHashes.length; i += 50) {
      const found = await Promise.all(unknownHashes.slice(i, i + 50).map((hash) => cache.resolve(hash)));
      expect(found.every((value) => value === null)).toBe(true);
    }
    const before = lookups;
    expect(await cache.resolve(real)).toMatchObject({ projectId: tenant.projectId });
    expect(lookups).toBe(before);
  }, 120_000);

  it('sends one lookup for a key however many requests wait for it at once', async () => {
    let lookups = 0;
    const counting: Executor = {
      query: (text, params) => {
        lookups++;
        return server.ctx.db.query(text, params);
      },
    };
    const cache = new ApiKeyCache(counting, 60_000);
    const real = parseApiKey(tenant.sandboxKey)!.hash;
    const found = await Promise.all(Array.from({ length: 50 }, () => cache.resolve(real)));
    expect(found.every((value) => value?.projectId === tenant.projectId)).toBe(true);
    expect(lookups).toBe(1);
    expect(cache.peek(real)).toMatchObject({ projectId: tenant.projectId });
  });

  it('does not keep a lookup that was in flight when the key was invalidated', async () => {
    const cache = new ApiKeyCache(server.ctx.db, 60_000);
    const real = parseApiKey(tenant.sandboxKey)!.hash;
    const inFlight = cache.resolve(real);
    cache.invalidate(real);
    expect(await inFlight).toMatchObject({ projectId: tenant.projectId });
    expect(cache.peek(real)).toBeUndefined();
  });

  it('answers a cached key from memory until its entry expires', async () => {
    let now = 1_000_000;
    const cache = new ApiKeyCache(server.ctx.db, 500, () => now);
    const real = parseApiKey(tenant.sandboxKey)!.hash;
    expect(cache.peek(real)).toBeUndefined();
    await cache.resolve(real);
    now += 499;
    expect(cache.peek(real)).toMatchObject({ projectId: tenant.projectId });
    now += 1;
    expect(cache.peek(real)).toBeUndefined();
  });
});
