/**
 * Fuzzes every public route, as listed by the served OpenAPI document (so new routes are covered
 * without touching this file), with malformed path parameters, queries, headers and bodies. For every
 * request: no 5xx, every non-2xx answer is problem+json matching its status, and a refused request
 * writes nothing (the rows of the tenant are counted before and after).
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../src/lib/environment.ts';
import { applyDueSandboxOutcomes } from '../../src/modules/verifications/sandbox.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { client, eventually, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { type FuzzRequest, type Operation, operationsOf, requestFor } from './arbitraries.ts';

const RUNS = Number(process.env.PONTE_FUZZ_RUNS ?? 12);
const SEED = Number(process.env.PONTE_FUZZ_SEED ?? 20_240_601);

let server: TestServer;
let tenant: Tenant;
let realIds: string[];
let countRows: () => Promise<string>;
const operations: Record<Environment, Operation[]> = { sandbox: [], production: [] };

beforeAll(async () => {
  server = await startTestServer({
    workers: false,
    env: { PONTE_RATE_LIMIT_PER_SECOND: '1000000', PONTE_RATE_LIMIT_BURST: '1000000' },
  });
  tenant = await server.newTenant();
  // An APPROVED sandbox customer (its outcome applied here, as the worker would), so that requests
  // naming it reach the rules behind validation; nothing changes by itself while the fuzz runs.
  const sandbox = client(server.sandbox, tenant.sandboxKey);
  const customer = await createCustomer(sandbox, individualBody());
  await eventually(
    async () => {
      await applyDueSandboxOutcomes(server.ctx.db, server.ctx.clock);
      return (await sandbox.get(`/customers/${customer.id}`)).json().verification.status;
    },
    (status) => status === 'APPROVED',
  );
  const other = await createCustomer(client(server.production, tenant.productionKey), individualBody());
  realIds = [customer.id, customer.verification.id, other.id];
  for (const environment of ['sandbox', 'production'] as const) {
    const doc = await server.app(environment).inject({ method: 'GET', url: '/openapi.json' });
    operations[environment] = operationsOf(doc.json());
  }
  // Every table holding partner data, found by its project_id column, so new tables are counted too.
  // Idempotency keys are left out: recording a 4xx answer under its key is the contract; so is the
  // request log, which records every request, refused ones included.
  const tables = (
    await server.ctx.db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
        WHERE column_name = 'project_id' AND table_schema = current_schema()
          AND table_name NOT IN ('idempotency_keys', 'request_log') ORDER BY table_name`,
    )
  ).map((row) => row.table_name);
  const sql = tables
    .map((table) => `SELECT '${table}' AS t, count(*) AS n FROM ${table} WHERE project_id = $1`)
    .join(' UNION ALL ');
  countRows = async () =>
    JSON.stringify(
      (await server.ctx.db.query<{ t: string; n: bigint }>(sql, [tenant.projectId])).map(
        (row) => `${row.t}=${row.n}`,
      ),
    );
}, 120_000);
afterAll(() => server.close());

function send(app: FastifyInstance, environment: Environment, op: Operation, request: FuzzRequest) {
  const own = environment === 'sandbox' ? tenant.sandboxKey : tenant.productionKey;
  const otherEnvironment = environment === 'sandbox' ? tenant.productionKey : tenant.sandboxKey;
  const key = { valid: own, junk: 'sk_live_0000', 'other-environment': otherEnvironment, none: null }[
    request.auth
  ];
  return app.inject({
    method: op.method as 'GET',
    url: request.url,
    headers: { ...request.headers, ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
}

describe('every public route under malformed input', () => {
  it('lists the routes to fuzz from the OpenAPI document', () => {
    expect(operations.sandbox.length).toBeGreaterThan(3);
    expect(operations.sandbox.some((op) => op.method === 'POST' && op.path === '/customers')).toBe(true);
  });

  for (const environment of ['sandbox', 'production'] as const) {
    it(`answers problems, never a 5xx, and writes nothing when refused (${environment})`, async () => {
      const app = server.app(environment);
      for (const op of operations[environment]) {
        await fc.assert(
          fc.asyncProperty(requestFor(op, realIds), async (request) => {
            const before = op.method === 'GET' ? '' : await countRows();
            const answer = await send(app, environment, op, request);
            const where = `${op.method} ${request.url} -> ${answer.statusCode} ${answer.body.slice(0, 300)}`;
            expect(answer.statusCode, where).toBeLessThan(500);
            if (answer.statusCode >= 200 && answer.statusCode < 300) return;
            expect(answer.headers['content-type'], where).toMatch(/^application\/problem\+json/);
            const problem = answer.json();
            expect(problem.status, where).toBe(answer.statusCode);
            expect(typeof problem.code, where).toBe('string');
            expect(problem.requestId, where).toBe(answer.headers['x-request-id']);
            if (op.method !== 'GET') expect(await countRows(), where).toBe(before);
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      }
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
    }, 300_000);
  }
});
