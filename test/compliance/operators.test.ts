import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/secrets.ts';
import { type Client, startTestServer, type TestServer } from '../helpers/server.ts';
import { operatorClient } from './support.ts';

let server: TestServer;
let operator: Client;

beforeAll(async () => {
  // its own database: operators are platform-wide, and other files make them too (some at future times)
  server = await startTestServer({ workers: false, ownDatabase: true });
  operator = operatorClient(server);
});
afterAll(() => server.close());

const createOperator = async (name: string) => {
  const response = await operator.post('/operator/operators', { name });
  expect(response.statusCode).toBe(201);
  return response.json();
};

describe('POST /operator/operators', () => {
  it('creates an account and shows its token once; the token is stored only as a hash', async () => {
    const response = await operator.post('/operator/operators', { name: '  Dora Ops ' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const created = response.json();
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'id', 'name', 'revokedAt', 'token']);
    expect(created).toMatchObject({ name: 'Dora Ops', revokedAt: null });
    expect(created.token).toMatch(/^op_[0-9A-Za-z]{40}$/);
    const stored = await server.ctx.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM operators WHERE id = $1',
      [created.id],
    );
    expect(stored).toEqual([{ token_hash: sha256Hex(created.token) }]);
    const listed = (await operator.get('/operator/operators')).json();
    expect(listed.data[0]).toEqual({
      id: created.id,
      name: 'Dora Ops',
      createdAt: created.createdAt,
      revokedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it('lets the new token act, and the audit log names the account that acted', async () => {
    const created = await createOperator('Eva Onboarding');
    const eva = operatorClient(server, created.token);
    const project = (await eva.post('/operator/projects', { name: 'Loja da Eva' })).json();
    const log = (await operator.get(`/operator/audit-log?resourceId=${project.id}`)).json();
    expect(log.data).toEqual([
      {
        id: expect.any(String),
        actor: { id: created.id, name: 'Eva Onboarding' },
        action: 'project.created',
        resourceType: 'project',
        resourceId: project.id,
        before: null,
        after: { name: 'Loja da Eva' },
        createdAt: project.createdAt,
      },
    ]);
  });

  it('refuses a blank or missing name with 400', async () => {
    const blank = await operator.post('/operator/operators', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toEqual([{ pointer: '/body/name', message: 'must not be blank' }]);
    const missing = await operator.post('/operator/operators', {});
    expect(missing.json().errors).toEqual([{ pointer: '/body/name', message: 'is required' }]);
  });

  it('refuses callers without a valid operator token, including partner API keys, with 401', async () => {
    const tenant = await server.newTenant();
    for (const headers of [
      {},
      { authorization: `Bearer ${tenant.sandboxKey}` },
      { authorization: 'Bearer op_x' },
    ]) {
      const response = await server.operator.inject({
        method: 'POST',
        url: '/operator/operators',
        payload: { name: 'Intruder' },
        headers,
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
  });
});

describe('DELETE /operator/operators/{id}', () => {
  it('revokes an account: its token stops working at once, and the revocation is audited', async () => {
    const created = await createOperator('Fabio Temp');
    const fabio = operatorClient(server, created.token);
    expect((await fabio.get('/operator/audit-log?limit=1')).statusCode).toBe(200);
    const revoked = await operator.delete(`/operator/operators/${created.id}`);
    expect(revoked.statusCode).toBe(204);
    expect((await fabio.get('/operator/audit-log?limit=1')).statusCode).toBe(401);
    expect((await operator.delete(`/operator/operators/${created.id}`)).statusCode).toBe(404);
    const log = (await operator.get(`/operator/audit-log?resourceId=${created.id}`)).json();
    expect(log.data.map((e: { action: string }) => e.action)).toEqual([
      'operator.revoked',
      'operator.created',
    ]);
    expect(log.data[0]).toMatchObject({
      actor: { id: null, name: 'bootstrap' },
      before: { name: 'Fabio Temp', revokedAt: null },
      after: { name: 'Fabio Temp', revokedAt: expect.any(String) },
    });
    const listed = (await operator.get('/operator/operators?limit=50')).json();
    expect(listed.data.find((o: { id: string }) => o.id === created.id).revokedAt).not.toBeNull();
  });

  it('answers 404 for an unknown account', async () => {
    expect(
      (await operator.delete('/operator/operators/00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
  });
});

describe('GET /operator/audit-log', () => {
  it('records project creation and key issue and revoke with who, what and when, newest first, paged', async () => {
    const created = await createOperator('Hugo Keys');
    const hugo = operatorClient(server, created.token);
    const project = (await hugo.post('/operator/projects', { name: 'Audited partner' })).json();
    const issued = [];
    for (const environment of ['sandbox', 'production']) {
      issued.push((await hugo.post(`/operator/projects/${project.id}/api-keys`, { environment })).json());
    }
    expect((await hugo.delete(`/operator/api-keys/${issued[0].id}`)).statusCode).toBe(204);
    const log = (await operator.get(`/operator/audit-log?actorId=${created.id}&limit=3`)).json();
    expect(log.data.map((e: { action: string; resourceId: string }) => [e.action, e.resourceId])).toEqual([
      ['api_key.revoked', issued[0].id],
      ['api_key.issued', issued[1].id],
      ['api_key.issued', issued[0].id],
    ]);
    expect(log.data[0]).toMatchObject({
      actor: { id: created.id, name: 'Hugo Keys' },
      resourceType: 'api_key',
      before: { revokedAt: null },
      after: { revokedAt: expect.any(String) },
    });
    expect(log.data[2].after).toMatchObject({ projectId: project.id, environment: 'sandbox' });
    expect(JSON.stringify(log)).not.toContain(issued[0].key);
    const times = log.data.map((e: { createdAt: string }) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(log.pagination).toEqual({ size: 3, total: 4, page: 1, hasNextPage: true, nextCursor: '2' });
    const last = (await operator.get(`/operator/audit-log?actorId=${created.id}&limit=3&page=2`)).json();
    expect(last.data).toEqual([
      expect.objectContaining({
        action: 'project.created',
        resourceId: project.id,
        after: { name: 'Audited partner' },
      }),
    ]);
  });

  it('filters by action and resource type', async () => {
    await createOperator('Gil Filter');
    const byAction = (await operator.get('/operator/audit-log?action=operator.created')).json();
    expect(byAction.data.length).toBeGreaterThan(0);
    expect(new Set(byAction.data.map((e: { action: string }) => e.action))).toEqual(
      new Set(['operator.created']),
    );
    const byType = (await operator.get('/operator/audit-log?resourceType=operator')).json();
    expect(byType.pagination.total).toBeGreaterThanOrEqual(byAction.pagination.total);
    const malformed = await operator.get('/operator/audit-log?resourceId=nope');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].pointer).toBe('/query/resourceId');
  });
});
