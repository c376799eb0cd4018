/**
 * One security suite for every partner route, enumerated from the served OpenAPI document: no key,
 * malformed key, mistyped key, revoked key, a key of the other environment, and another project's key.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/secrets.ts';
import { client, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { createFixtures, type Fixtures, fillPath } from './fixtures.ts';

type Operation = { method: string; path: string; secured: boolean; responses: string[] };

let server: TestServer;
let operations: Operation[];
let owner: Tenant;
let stranger: Tenant;
let revokedKey: string;
let fixtures: Fixtures;

function listOperations(doc: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const security = (op.security as Record<string, unknown>[] | undefined) ?? [];
      out.push({
        method,
        path,
        secured: security.some((s) => 'bearerAuth' in s),
        responses: Object.keys((op.responses as object) ?? {}),
      });
    }
  }
  return out;
}

const appFor = (path: string, environment: 'sandbox' | 'production'): FastifyInstance | null =>
  path.startsWith('/sandbox/') && environment === 'production' ? null : server.app(environment);

async function call(app: FastifyInstance, op: Operation, url: string, authorization?: string) {
  return app.inject({
    method: op.method.toUpperCase() as 'GET',
    url,
    ...(op.method === 'post' ? { payload: {} } : {}),
    headers: authorization ? { authorization } : {},
  });
}

beforeAll(async () => {
  server = await startTestServer({ env: { PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  operations = listOperations((await server.sandbox.inject({ url: '/openapi.json' })).json()).filter(
    (o) => o.secured,
  );
  owner = await server.newTenant('Owner');
  stranger = await server.newTenant('Stranger');
  const revoked = await server.newTenant('Revoked');
  revokedKey = revoked.sandboxKey;
  await server.ctx.db.query('UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1', [
    sha256Hex(revokedKey),
  ]);
  fixtures = await createFixtures(client(server.sandbox, owner.sandboxKey), operations);
}, 60_000);
afterAll(() => server.close());

describe('security of every partner route', () => {
  it('the OpenAPI document declares bearer security and a 401 answer on every partner route', async () => {
    expect(operations.length).toBeGreaterThanOrEqual(4);
    const withoutUnauthorized = operations.filter((o) => !o.responses.includes('401'));
    expect(withoutUnauthorized).toEqual([]);
    for (const route of ['/customers/{id}/limit-requests/{limitRequestId}', '/bank-accounts/{id}'] as const) {
      if (operations.some((o) => o.path === route))
        expect(operations.find((o) => o.path === route)!.secured).toBe(true);
    }
  });

  it('every templated route can be filled with a real resource', () => {
    const missing = operations.flatMap((op) => {
      const filled = fillPath(op.path, fixtures);
      return 'missing' in filled ? filled.missing : [];
    });
    expect(missing).toEqual([]);
  });

  const keyCases: [string, () => string | undefined, string][] = [
    ['no key', () => undefined, 'unauthorized'],
    ['a malformed key', () => 'Bearer not-a-key', 'unauthorized'],
    ['a header without the Bearer scheme', () => owner.sandboxKey, 'unauthorized'],
    [
      'a mistyped key (checksum)',
      () => `Bearer ${owner.sandboxKey.slice(0, -1)}${owner.sandboxKey.endsWith('a') ? 'b' : 'a'}`,
      'unauthorized',
    ],
    ['a revoked key', () => `Bearer ${revokedKey}`, 'unauthorized'],
    ['a key of the other environment', () => `Bearer ${owner.productionKey}`, 'environment_mismatch'],
  ];

  for (const [name, authorization, code] of keyCases) {
    it(`answers 401 ${code} with WWW-Authenticate for ${name}`, async () => {
      const wrong: string[] = [];
      for (const op of operations) {
        const filled = fillPath(op.path, fixtures);
        const url = 'url' in filled ? filled.url : op.path;
        const response = await call(appFor(op.path, 'sandbox')!, op, url, authorization());
        const ok =
          response.statusCode === 401 &&
          response.headers['www-authenticate'] === 'Bearer' &&
          String(response.headers['content-type']).startsWith('application/problem+json') &&
          response.json().code === code;
        if (!ok)
          wrong.push(
            `${op.method.toUpperCase()} ${op.path}: ${response.statusCode} ${response.body.slice(0, 120)}`,
          );
      }
      expect(wrong).toEqual([]);
    });
  }

  it("answers 404 to another project's key for every route that names a resource", async () => {
    const leaks: string[] = [];
    for (const op of operations.filter((o) => o.path.includes('{'))) {
      const filled = fillPath(op.path, fixtures);
      if (!('url' in filled)) continue;
      const response = await call(server.sandbox, op, filled.url, `Bearer ${stranger.sandboxKey}`);
      // a POST with an empty body may be refused as invalid before the lookup: never a success, never data
      const acceptable = response.statusCode === 404 || (op.method === 'post' && response.statusCode === 400);
      if (!acceptable) leaks.push(`${op.method.toUpperCase()} ${op.path}: ${response.statusCode}`);
    }
    expect(leaks).toEqual([]);
  });

  it("lists of another project never include the owner's resources", async () => {
    const stranger_ = client(server.sandbox, stranger.sandboxKey);
    for (const op of operations.filter((o) => o.method === 'get' && !o.path.includes('{'))) {
      const response = await stranger_.get(op.path);
      expect(response.statusCode, op.path).toBe(200);
      const body = JSON.stringify(response.json());
      for (const id of Object.values(fixtures)) expect(body, op.path).not.toContain(id);
    }
  });
});
