/**
 * The operator API for dashboard invitations, and the request log kept for the dashboard: what is
 * recorded (metadata, the problem body of a failure, bodies only redacted) and how long it is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { createRequestRecorder } from '../../src/modules/request-log/recorder.ts';
import { pruneRequestLog } from '../../src/modules/request-log/service.ts';
import { createWebUserService } from '../../src/modules/web-users/service.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, eventually, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let tenant: { projectId: string; sandboxKey: string; productionKey: string };
let sandbox: Client;

const invite = (projectId: string, payload: object) =>
  server.operator.inject({
    method: 'POST',
    url: `/operator/projects/${projectId}/users`,
    payload,
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });

beforeAll(async () => {
  server = await startTestServer({ env: { PONTE_REQUEST_LOG_FLUSH_MS: '20' } });
  tenant = await server.newTenant('Log partner');
  sandbox = client(server.sandbox, tenant.sandboxKey);
});
afterAll(() => server.close());

describe('POST /operator/projects/{id}/users', () => {
  it('answers 201 with id, email, role and a single-use invite link of the dashboard', async () => {
    const response = await invite(tenant.projectId, { email: 'new@partner.example', role: 'developer' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ email: 'new@partner.example', role: 'developer', status: 'invited' });
    expect(body.inviteUrl).toMatch(
      new RegExp(`^${server.config.dashboardUrl.origin}/invite/[0-9A-Za-z]{43}$`),
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const users = createWebUserService({ ...server.ctx, encryptionKey: server.ctx.instanceKeys.encryption });
    const token = body.inviteUrl.split('/').pop();
    await users.acceptInvite('dashboard', token, 'a password of some length');
    await expect(users.acceptInvite('dashboard', token, 'a password of some length')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('refuses a bad e-mail or role (400), an unknown project (404), an e-mail already in use (409)', async () => {
    expect((await invite(tenant.projectId, { email: 'not-an-email', role: 'admin' })).statusCode).toBe(400);
    expect((await invite(tenant.projectId, { email: 'x@partner.example', role: 'owner' })).statusCode).toBe(
      400,
    );
    expect(
      (await invite('01a20000-0000-7000-8000-000000000000', { email: 'y@p.example', role: 'admin' }))
        .statusCode,
    ).toBe(404);
    expect((await invite(tenant.projectId, { email: 'NEW@partner.example', role: 'admin' })).statusCode).toBe(
      409,
    );
  });

  it('answers 401 without an operator token', async () => {
    const response = await server.operator.inject({
      method: 'POST',
      url: `/operator/projects/${tenant.projectId}/users`,
      payload: { email: 'z@p.example', role: 'admin' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('request log', () => {
  type Row = { path: string; status: number; problem: unknown; request_id: string; latency_ms: number };
  const rowsOf = (requestId: string) =>
    server.ctx.db.query<Row>(
      'SELECT path, status, problem, request_id, latency_ms FROM request_log WHERE request_id = $1',
      [requestId],
    );

  it('records metadata of each request, the problem body of a failure, and no personal data in clear', async () => {
    const created = await sandbox.post(
      '/customers',
      individualBody({ name: 'Pessoa Privada', email: 'privada@x.example' }),
    );
    const failed = await sandbox.get('/customers/not-a-uuid?secret=1');
    const [ok] = await eventually(
      () => rowsOf(created.headers['x-request-id'] as string),
      (rows) => rows.length === 1,
    );
    expect(ok).toMatchObject({ path: '/customers', status: 201, problem: null });
    expect(JSON.stringify(ok)).not.toContain('Pessoa');
    const [bad] = await eventually(
      () => rowsOf(failed.headers['x-request-id'] as string),
      (rows) => rows.length === 1,
    );
    expect(bad!.path).toBe('/customers/not-a-uuid');
    expect(bad!.status).toBe(400);
    expect(bad!.problem).toMatchObject({ code: 'invalid_request' });
  });

  it('records nothing for a request without a valid key (no project to show it to)', async () => {
    const anonymous = await server.sandbox.inject({
      method: 'GET',
      url: '/customers',
      headers: { 'x-request-id': 'anon-probe-1' },
    });
    expect(anonymous.statusCode).toBe(401);
    const marker = await sandbox.get('/customers', { 'x-request-id': 'after-anon-1' });
    expect(marker.statusCode).toBe(200);
    await eventually(
      () => rowsOf('after-anon-1'),
      (rows) => rows.length === 1,
    );
    expect(await rowsOf('anon-probe-1')).toHaveLength(0);
  });

  it('deletes entries past the retention period', async () => {
    await sandbox.get('/customers', { 'x-request-id': 'retention-probe-1' });
    await eventually(
      () => rowsOf('retention-probe-1'),
      (rows) => rows.length === 1,
    );
    const future = () => new Date(Date.now() + 31 * 24 * 3_600_000);
    while ((await pruneRequestLog(server.ctx.db, future, server.config.requestLog.retentionMs)) > 0) {}
    expect(await rowsOf('retention-probe-1')).toHaveLength(0);
  });

  it('keeps entries within the retention period', async () => {
    await sandbox.get('/customers', { 'x-request-id': 'retention-kept-1' });
    await eventually(
      () => rowsOf('retention-kept-1'),
      (rows) => rows.length === 1,
    );
    const soon = () => new Date(Date.now() + 29 * 24 * 3_600_000);
    while ((await pruneRequestLog(server.ctx.db, soon, server.config.requestLog.retentionMs)) > 0) {}
    expect(await rowsOf('retention-kept-1')).toHaveLength(1);
  });

  it('writes every queued entry in one flush, however many, with problem bodies as JSON', async () => {
    const recorder = createRequestRecorder(server.ctx.db, {
      intervalMs: 60_000,
      onError: (error) => {
        throw error;
      },
    });
    const at = new Date();
    for (let i = 0; i < 2_500; i++) {
      recorder.record({
        projectId: tenant.projectId,
        environment: 'sandbox',
        apiKeyId: null,
        method: 'GET',
        path: `/customers/batch-${i}`,
        status: i % 2 === 0 ? 200 : 404,
        latencyMs: i,
        requestId: `batch-probe-${i}`,
        problem: i % 2 === 0 ? null : { code: 'not_found', detail: `"quoted" \\ ${i}` },
        idempotencyKey: null,
        requestBody: undefined,
        responseBody: undefined,
        at,
      });
    }
    await recorder.close();
    const rows = await server.ctx.db.query<Row>(
      `SELECT path, status, problem, request_id, latency_ms FROM request_log
        WHERE request_id LIKE 'batch-probe-%' ORDER BY latency_ms`,
    );
    expect(rows).toHaveLength(2_500);
    expect(rows[0]).toMatchObject({ path: '/customers/batch-0', status: 200, problem: null, latency_ms: 0 });
    expect(rows[2_499]).toMatchObject({
      path: '/customers/batch-2499',
      status: 404,
      problem: { code: 'not_found', detail: '"quoted" \\ 2499' },
    });
  });

  it('writes entries that arrive during a write with the next batch, not in a write of their own', async () => {
    const inserts: number[] = [];
    const counting: Database = {
      ...server.ctx.db,
      query: (text, params) => {
        if (text.startsWith('INSERT INTO request_log')) inserts.push((params![0] as unknown[]).length);
        return server.ctx.db.query(text, params);
      },
    };
    const recorder = createRequestRecorder(counting, {
      intervalMs: 60_000,
      onError: (error) => {
        throw error;
      },
    });
    const entry = (i: number) => ({
      projectId: tenant.projectId,
      environment: 'sandbox' as const,
      apiKeyId: null,
      method: 'GET',
      path: '/customers',
      status: 200,
      latencyMs: i,
      requestId: `stream-probe-${i}`,
      problem: null,
      idempotencyKey: null,
      requestBody: undefined,
      responseBody: '{"data":[]}',
      at: new Date(),
    });
    // a full batch starts a write at once; ten more arrive while it is under way
    // (its bodies are redacted first, so the insert itself follows a few turns later)
    for (let i = 0; i < 2_000; i++) recorder.record(entry(i));
    for (let i = 2_000; i < 2_010; i++) recorder.record(entry(i));
    await eventually(
      async () => inserts,
      (sizes) => sizes.length > 0,
    );
    expect(inserts).toEqual([2_000]);
    await eventually(
      () =>
        server.ctx.db.query<{ n: bigint }>(
          "SELECT count(*) AS n FROM request_log WHERE request_id LIKE 'stream-probe-%'",
        ),
      (rows) => rows[0]!.n === 2_000n,
    );
    // they wait for the interval (or a full batch), then go out together
    expect(inserts).toEqual([2_000]);
    await recorder.close();
    expect(inserts).toEqual([2_000, 10]);
  });
});
