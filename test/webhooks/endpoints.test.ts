import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, type TestServer } from '../helpers/server.ts';
import { createEndpoint, STARTUP_TIMEOUT_MS, startWebhookServer } from './support.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;
let otherSandbox: Client;
let otherProduction: Client;

beforeAll(async () => {
  server = await startWebhookServer({ workers: false });
  const tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
  const other = await server.newTenant('Other partner');
  otherSandbox = client(server.sandbox, other.sandboxKey);
  otherProduction = client(server.production, other.productionKey);
}, STARTUP_TIMEOUT_MS);
afterAll(() => server.close());

const PUBLIC_URL = 'https://93.184.215.14/ponte/hooks';

describe('POST /webhook-endpoints', () => {
  it('registers an endpoint and answers its signing secret once', async () => {
    const response = await production.post('/webhook-endpoints', { url: PUBLIC_URL });
    expect(response.statusCode).toBe(201);
    const endpoint = response.json();
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: PUBLIC_URL,
      events: null,
      status: 'ENABLED',
      disabledReason: null,
      previousSecretExpiresAt: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: endpoint.createdAt,
    });
    const read = await production.get(`/webhook-endpoints/${endpoint.id}`);
    expect(read.statusCode).toBe(200);
    const { secret: _secret, ...withoutSecret } = endpoint;
    expect(read.json()).toEqual(withoutSecret);
    const list = (await production.get('/webhook-endpoints')).json();
    expect(list.data.find((e: { id: string }) => e.id === endpoint.id)).toEqual(withoutSecret);
    expect(JSON.stringify(list)).not.toContain(endpoint.secret.slice(6));
  });

  it('subscribes to the listed event types only, and refuses unknown ones', async () => {
    const endpoint = await createEndpoint(sandbox, {
      url: 'https://partner.example/hooks',
      events: ['customer.created', 'transaction.updated', 'customer.created'],
    });
    expect(endpoint.events).toEqual(['customer.created', 'transaction.updated']);
    const unknown = await sandbox.post('/webhook-endpoints', {
      url: 'https://partner.example/hooks',
      events: ['customer.created', 'customer.deleted'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([{ pointer: '/body/events/1', message: expect.any(String) }]);
    const empty = await sandbox.post('/webhook-endpoints', { url: 'https://partner.example/', events: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].pointer).toBe('/body/events');
  });

  it('refuses URLs that are not http(s), carry credentials or are not URLs, with pointer /body/url', async () => {
    for (const url of ['ftp://partner.example/hooks', 'https://user:pw@partner.example/', 'hooks', '']) {
      const response = await sandbox.post('/webhook-endpoints', { url });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ pointer: '/body/url', message: expect.any(String) }]);
    }
  });

  it('refuses in production URLs on private, loopback, link-local or CGNAT addresses', async () => {
    const refused = [
      'http://127.0.0.1:8080/hooks',
      'http://10.0.0.7/hooks',
      'http://[::1]/hooks',
      'http://169.254.169.254/latest/meta-data',
      'https://192.168.0.10/',
      'https://100.64.1.1/',
      'https://[fd00::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://0.0.0.0/',
      'http://localhost:3000/hooks',
    ];
    for (const url of refused) {
      const response = await production.post('/webhook-endpoints', { url });
      expect([url, response.statusCode]).toEqual([url, 400]);
      expect(response.json().errors).toEqual([
        { pointer: '/body/url', message: expect.stringContaining('must reach a public address') },
      ]);
    }
    const total = (await production.get('/webhook-endpoints')).json().pagination.total;
    expect(total).toBe(1);
  });

  it('accepts local receivers in sandbox, so partners can test against their own machine', async () => {
    const endpoint = await createEndpoint(sandbox, { url: 'http://127.0.0.1:9999/hooks' });
    expect(endpoint.url).toBe('http://127.0.0.1:9999/hooks');
    expect((await sandbox.post('/webhook-endpoints', { url: 'http://localhost:3000/' })).statusCode).toBe(
      201,
    );
  });
});

describe('GET /webhook-endpoints', () => {
  it('lists endpoints newest first, paged', async () => {
    const tenant = await server.newTenant();
    const api = client(server.sandbox, tenant.sandboxKey);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createEndpoint(api, { url: `https://p.example/${i}` })).id);
    const first = (await api.get('/webhook-endpoints?limit=2')).json();
    expect(first.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.pagination).toEqual({ size: 2, total: 3, hasNextPage: true, page: 1, nextCursor: '2' });
    const second = (await api.get('/webhook-endpoints?limit=2&cursor=2')).json();
    expect(second.data.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    expect(second.pagination.hasNextPage).toBe(false);
  });
});

describe('DELETE /webhook-endpoints/{id}', () => {
  it('answers 204, then the endpoint is gone (404) and no longer listed', async () => {
    const endpoint = await createEndpoint(sandbox, { url: 'https://partner.example/delete-me' });
    expect((await sandbox.delete(`/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(204);
    expect((await sandbox.get(`/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404);
    expect((await sandbox.delete(`/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404);
    expect((await sandbox.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).statusCode).toBe(404);
    const list = (await sandbox.get('/webhook-endpoints?limit=50')).json();
    expect(list.data.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another project's or environment's endpoint, exactly like a missing one", async () => {
    const endpoint = await createEndpoint(sandbox, { url: 'https://partner.example/mine' });
    const deliveryId = '0190e0e2-0000-7000-8000-000000000000';
    for (const api of [otherSandbox, otherProduction, production]) {
      const responses = [
        await api.get(`/webhook-endpoints/${endpoint.id}`),
        await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`),
        await api.post(`/webhook-endpoints/${endpoint.id}/deliveries/${deliveryId}/retry`, undefined),
        await api.delete(`/webhook-endpoints/${endpoint.id}`),
      ];
      for (const response of responses) {
        expect(response.statusCode).toBe(404);
        expect(response.json().code).toBe('not_found');
      }
    }
    const otherList = (await otherSandbox.get('/webhook-endpoints')).json();
    expect(otherList.data).toEqual([]);
    expect((await sandbox.get(`/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(200);
  });

  it('answers 400 for a malformed id', async () => {
    const response = await sandbox.get('/webhook-endpoints/not-a-uuid/deliveries');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].pointer).toBe('/path/id');
  });
});
