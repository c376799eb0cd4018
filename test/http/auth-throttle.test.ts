/**
 * Failed authentication cannot be tried without limit: failures are counted per client address, and an
 * address past its budget is answered 429 before anything is looked up. The bootstrap operator token
 * must be long, and the API key cache cannot be emptied by a flood of unknown keys.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { Executor } from '../../src/db/types.ts';
import { generateApiKey, parseApiKey } from '../../src/lib/api-key.ts';
import { ApiKeyCache } from '../../src/modules/projects/key-cache.ts';
import { startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';

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
  it('answers 429 to an address past its budget of unknown API keys, even with a good key, and not to others', async () => {
    const address = freshAddress();
    for (let i = 0; i < BURST; i++) expect((await sandboxGet(address, unknownKey())).statusCode).toBe(401);
    // the failure that finds the budget empty is still answered, then the address waits
    expect((await sandboxGet(address, unknownKey())).statusCode).toBe(401);
    const blocked = await sandboxGet(address, tenant.sandboxKey);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(blocked.json().code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not affected
    expect((await sandboxGet(freshAddress(), tenant.sandboxKey)).statusCode).toBe(200);
  });

  it('counts wrong operator tokens', async () => {
    const address = freshAddress();
    const attempt = (token: string) =>
      server.operator.inject({
        method: 'GET',
        url: '/operator/verifications',
        remoteAddress: address,
        headers: { authorization: `Bearer ${token}` },
      });
    for (let i = 0; i <= BURST; i++) expect((await attempt(`${server.operatorToken}x`)).statusCode).toBe(401);
    expect((await attempt(server.operatorToken)).statusCode).toBe(429);
  });

  it('counts forged hosted-page links', async () => {
    const address = freshAddress();
    const open = () =>
      server.sandbox.inject({ method: 'GET', url: '/verify/forged.link', remoteAddress: address });
    for (let i = 0; i <= BURST; i++) expect((await open()).statusCode).toBe(404);
    expect((await open()).statusCode).toBe(429);
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
