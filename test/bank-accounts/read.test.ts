import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessBody, type CustomerView, createCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { ACCOUNT_KEYS, accountBody, selfBody } from './bodies.ts';

let server: TestServer;
let production: Client;
let sandbox: Client;
let customer: CustomerView;

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant();
  production = client(server.production, tenant.productionKey);
  sandbox = client(server.sandbox, tenant.sandboxKey);
  customer = await createCustomer(production);
});
afterAll(() => server.close());

async function createAccount(api: Client, body: object) {
  const response = await api.post('/bank-accounts', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const ids = (page: { data: { id: string }[] }) => page.data.map((account) => account.id);

describe('GET /bank-accounts/{id}', () => {
  it('answers reads made together each with its own account: another tenant’s and a removed one 404', async () => {
    const otherTenant = await server.newTenant();
    const other = client(server.production, otherTenant.productionKey);
    const otherCustomer = await createCustomer(other);
    const mine = [];
    for (let i = 0; i < 12; i++) mine.push(await createAccount(production, accountBody(customer.id)));
    const theirs = [];
    for (let i = 0; i < 4; i++) theirs.push(await createAccount(other, accountBody(otherCustomer.id)));
    const removed = await createAccount(production, accountBody(customer.id));
    expect((await production.delete(`/bank-accounts/${removed.id}`)).statusCode).toBe(204);

    const reads = [
      ...mine.map((account) => ({ api: production, id: account.id, expected: account })),
      ...theirs.map((account) => ({ api: other, id: account.id, expected: account })),
      ...theirs.map((account) => ({ api: production, id: account.id, expected: undefined })),
      ...mine.slice(0, 4).map((account) => ({ api: sandbox, id: account.id, expected: undefined })),
      { api: production, id: removed.id, expected: undefined },
    ];
    const answers = await Promise.all(reads.map(({ api, id }) => api.get(`/bank-accounts/${id}`)));
    answers.forEach((answer, index) => {
      const { expected } = reads[index]!;
      if (expected) {
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toEqual(expected);
      } else expect(answer.statusCode).toBe(404);
    });
  });

  it('answers every field of seed 2.4, with the holder incorporationDate of a business', async () => {
    const business = await createCustomer(production, businessBody());
    const created = await createAccount(production, selfBody(business));
    const response = await production.get(`/bank-accounts/${created.id}`);
    expect(response.statusCode).toBe(200);
    const account = response.json();
    expect(account).toEqual(created);
    expect(Object.keys(account).sort()).toEqual(ACCOUNT_KEYS);
    expect(Object.keys(account.identifier).sort()).toEqual(['keyType', 'keyValue']);
    expect(Object.keys(account.holder).sort()).toEqual([
      'address',
      'email',
      'incorporationDate',
      'legalName',
      'relationship',
      'taxId',
      'type',
      'verification',
    ]);
    expect(Object.keys(account.holder.address).sort()).toEqual([
      'city',
      'country',
      'line1',
      'postalCode',
      'state',
    ]);
    expect(account.holder.verification).toEqual({ status: 'UNDER_VERIFICATION', level: 'BASIC' });
    expect(account.holder.incorporationDate).toBe('2019-05-14');
  });

  it('omits incorporationDate for a holder without one', async () => {
    const created = await createAccount(production, accountBody(customer.id));
    const account = (await production.get(`/bank-accounts/${created.id}`)).json();
    expect('incorporationDate' in account.holder).toBe(false);
  });

  it('answers 404 for an unknown id, another project and the other environment; 400 for a malformed id', async () => {
    const created = await createAccount(production, accountBody(customer.id));
    const other = client(server.production, (await server.newTenant('Other partner')).productionKey);
    for (const [api, id] of [
      [production, '00000000-0000-4000-8000-000000000000'],
      [other, created.id],
      [sandbox, created.id],
    ] as const) {
      const response = await api.get(`/bank-accounts/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    const malformed = await production.get('/bank-accounts/123');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors).toEqual([{ pointer: '/path/id', message: 'must be a valid UUID' }]);
  });

  it('answers 401 without an API key', async () => {
    const response = await server.production.inject({
      method: 'GET',
      url: '/bank-accounts/00000000-0000-4000-8000-000000000000',
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /bank-accounts', () => {
  it('lists newest first with exact pagination, page and cursor alike', async () => {
    const api = client(server.production, (await server.newTenant()).productionKey);
    const owner = await createCustomer(api);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createAccount(api, accountBody(owner.id))).id);
    const first = (await api.get('/bank-accounts?limit=2')).json();
    expect(ids(first)).toEqual([created[4], created[3]]);
    expect(first.pagination).toEqual({ size: 2, total: 5, hasNextPage: true, page: 1, nextCursor: '2' });
    const second = (await api.get(`/bank-accounts?limit=2&cursor=${first.pagination.nextCursor}`)).json();
    expect(ids(second)).toEqual([created[2], created[1]]);
    const last = (await api.get('/bank-accounts?limit=2&page=3')).json();
    expect(ids(last)).toEqual([created[0]]);
    expect(last.pagination).toEqual({ size: 2, total: 5, hasNextPage: false, page: 3, nextCursor: null });
    expect((await api.get('/bank-accounts?limit=2&page=9')).json().data).toEqual([]);
    const all = (await api.get('/bank-accounts')).json();
    expect(all.pagination.size).toBe(20);
    expect(all.data[0]).toEqual((await api.get(`/bank-accounts/${created[4]}`)).json());
  });

  it("filters by customerId, and another project's customer filters to nothing", async () => {
    const tenant = await server.newTenant();
    const api = client(server.production, tenant.productionKey);
    const [ana, bia] = [await createCustomer(api), await createCustomer(api)];
    const anaAccounts = [(await createAccount(api, accountBody(ana.id))).id];
    const biaAccount = (await createAccount(api, accountBody(bia.id))).id;
    anaAccounts.push((await createAccount(api, accountBody(ana.id))).id);
    const filtered = (await api.get(`/bank-accounts?customerId=${ana.id}`)).json();
    expect(ids(filtered)).toEqual([anaAccounts[1], anaAccounts[0]]);
    expect(filtered.pagination.total).toBe(2);
    expect(ids((await api.get(`/bank-accounts?customerId=${bia.id}`)).json())).toEqual([biaAccount]);
    const foreign = (await production.get(`/bank-accounts?customerId=${ana.id}`)).json();
    expect(foreign).toMatchObject({ data: [], pagination: { total: 0, hasNextPage: false } });
    // the other environment of the same project lists none of them
    expect((await client(server.sandbox, tenant.sandboxKey).get('/bank-accounts')).json().data).toEqual([]);
  });

  it('refuses a malformed customerId, a bad page size and unknown parameters', async () => {
    for (const [query, pointer] of [
      ['customerId=abc', '/query/customerId'],
      ['limit=51', '/query/limit'],
      ['page=0', '/query/page'],
      ['status=ACTIVE', '/query/status'],
    ]) {
      const response = await production.get(`/bank-accounts?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errors[0].pointer).toBe(pointer);
    }
  });
});

describe('DELETE /bank-accounts/{id}', () => {
  it('removes the account: 204, then 404 for GET and DELETE, and gone from the list', async () => {
    const api = client(server.production, (await server.newTenant()).productionKey);
    const owner = await createCustomer(api);
    const kept = await createAccount(api, accountBody(owner.id));
    const removed = await createAccount(api, accountBody(owner.id));
    const response = await api.delete(`/bank-accounts/${removed.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await api.get(`/bank-accounts/${removed.id}`)).statusCode).toBe(404);
    expect((await api.delete(`/bank-accounts/${removed.id}`)).statusCode).toBe(404);
    for (const url of ['/bank-accounts', `/bank-accounts?customerId=${owner.id}`]) {
      const page = (await api.get(url)).json();
      expect(ids(page)).toEqual([kept.id]);
      expect(page.pagination.total).toBe(1);
    }
  });

  it("answers 404 for another project's or environment's account and leaves it in place", async () => {
    const created = await createAccount(production, accountBody(customer.id));
    const other = client(server.production, (await server.newTenant('Other partner')).productionKey);
    expect((await other.delete(`/bank-accounts/${created.id}`)).statusCode).toBe(404);
    expect((await sandbox.delete(`/bank-accounts/${created.id}`)).statusCode).toBe(404);
    expect((await production.get(`/bank-accounts/${created.id}`)).statusCode).toBe(200);
  });

  it('removes an account once when asked twice at the same time', async () => {
    const created = await createAccount(production, accountBody(customer.id));
    const answers = await Promise.all([
      production.delete(`/bank-accounts/${created.id}`),
      production.delete(`/bank-accounts/${created.id}`),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 404]);
  });
});
