import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/secrets.ts';
import { individualBody } from '../helpers/factories.ts';
import { client, eventually, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const operator = () => ({ authorization: `Bearer ${server.operatorToken}` });

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function newProject(name = 'Acme Pagamentos') {
  const response = await server.operator.inject({
    method: 'POST',
    url: '/operator/projects',
    payload: { name },
    headers: operator(),
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

async function issueKey(projectId: string, environment: string) {
  return server.operator.inject({
    method: 'POST',
    url: `/operator/projects/${projectId}/api-keys`,
    payload: { environment, name: 'backend' },
    headers: operator(),
  });
}

describe('operator: projects and API keys', () => {
  it('creates a project', async () => {
    const project = await newProject();
    expect(project).toMatchObject({ name: 'Acme Pagamentos' });
    expect(project.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('issues a key shown once: only its hash and prefix are stored', async () => {
    const project = await newProject();
    const response = await issueKey(project.id, 'production');
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const issued = response.json();
    expect(issued).toMatchObject({ environment: 'production', name: 'backend' });
    expect(issued.key).toMatch(/^sk_live_[0-9A-Za-z]{38}$/);
    expect(issued.prefix).toBe(issued.key.slice(0, 12));
    const rows = await server.ctx.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [
      issued.id,
    ]);
    expect(rows[0]!.key_hash).toBe(sha256Hex(issued.key));
    expect(JSON.stringify(rows[0])).not.toContain(issued.key);
  });

  it('answers 404 for an unknown project and 400 for a bad environment', async () => {
    expect((await issueKey('00000000-0000-4000-8000-000000000000', 'sandbox')).statusCode).toBe(404);
    const project = await newProject();
    const bad = await issueKey(project.id, 'staging');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { pointer: '/body/environment', message: 'must be one of sandbox, production' },
    ]);
  });

  it('a revoked key stops working at once on this process and answers 404 when revoked again', async () => {
    const tenant = await server.newTenant();
    const api = client(server.sandbox, tenant.sandboxKey);
    expect((await api.get('/customers')).statusCode).toBe(200);
    const rows = await server.ctx.db.query<{ id: string }>('SELECT id FROM api_keys WHERE key_hash = $1', [
      sha256Hex(tenant.sandboxKey),
    ]);
    const id = rows[0]!.id;
    const revoke = () =>
      server.operator.inject({ method: 'DELETE', url: `/operator/api-keys/${id}`, headers: operator() });
    expect((await revoke()).statusCode).toBe(204);
    const after = await api.get('/customers');
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('unauthorized');
    expect((await revoke()).statusCode).toBe(404);
  });

  it('a key revoked by another process stops working here within a second', async () => {
    const tenant = await server.newTenant();
    const api = client(server.sandbox, tenant.sandboxKey);
    expect((await api.get('/customers')).statusCode).toBe(200); // now cached here
    // revoke directly in the database, as another process would
    await server.ctx.db.query('UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1', [
      sha256Hex(tenant.sandboxKey),
    ]);
    const started = Date.now();
    await eventually(
      () => api.get('/customers'),
      (r) => r.statusCode === 401,
      1_000,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('records project creation and key issue/revoke in the audit log', async () => {
    const project = await newProject('Audited');
    const key = (await issueKey(project.id, 'sandbox')).json();
    await server.operator.inject({
      method: 'DELETE',
      url: `/operator/api-keys/${key.id}`,
      headers: operator(),
    });
    const rows = await server.ctx.db.query<{ action: string; actor: string; resource_id: string }>(
      'SELECT action, actor, resource_id FROM audit_log WHERE resource_id = ANY($1) ORDER BY created_at, action',
      [[project.id, key.id]],
    );
    expect(rows.map((r) => r.action).sort()).toEqual([
      'api_key.issued',
      'api_key.revoked',
      'project.created',
    ]);
    expect(rows.every((r) => r.actor === 'bootstrap')).toBe(true);
  });
});

describe('operator authentication', () => {
  it('refuses a missing or unknown operator token', async () => {
    const none = await server.operator.inject({
      method: 'POST',
      url: '/operator/projects',
      payload: { name: 'x' },
    });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await server.operator.inject({
      method: 'POST',
      url: '/operator/projects',
      payload: { name: 'x' },
      headers: { authorization: 'Bearer op_0000000000000000000000000000000000000000' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('does not accept a partner API key', async () => {
    const tenant = await server.newTenant();
    const response = await server.operator.inject({
      method: 'POST',
      url: '/operator/projects',
      payload: { name: 'x' },
      headers: { authorization: `Bearer ${tenant.sandboxKey}` },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('API keys on the public listeners', () => {
  it('a key works only on its own environment: the other answers 401 environment_mismatch', async () => {
    const tenant = await server.newTenant();
    const onProduction = await client(server.production, tenant.sandboxKey).post(
      '/customers',
      individualBody(),
    );
    expect(onProduction.statusCode).toBe(401);
    expect(onProduction.json().code).toBe('environment_mismatch');
    expect(onProduction.headers['www-authenticate']).toBe('Bearer');
    const onSandbox = await client(server.sandbox, tenant.productionKey).get('/customers');
    expect(onSandbox.json().code).toBe('environment_mismatch');
  });

  it('a project sees only its own data in each environment', async () => {
    const a = await server.newTenant();
    const b = await server.newTenant();
    const created = (
      await client(server.production, a.productionKey).post('/customers', individualBody())
    ).json();
    expect(
      (await client(server.production, b.productionKey).get(`/customers/${created.id}`)).statusCode,
    ).toBe(404);
    expect((await client(server.sandbox, a.sandboxKey).get(`/customers/${created.id}`)).statusCode).toBe(404);
    expect((await client(server.production, b.productionKey).get('/customers')).json().pagination.total).toBe(
      0,
    );
  });
});
