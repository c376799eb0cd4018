/**
 * Keyset pagination (`startingAfter`) on every partner list: a walk is stable while items are created,
 * page-number requests keep the seed's page numbers, and a cursor no answer gave is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBody } from '../bank-accounts/bodies.ts';
import { approvedCustomer, createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client, eventually, startTestApi, type TestServer } from '../helpers/server.ts';
import { rejectInDatabase, uploadStatement } from '../limit-requests/support.ts';
import { createOnRamp } from '../transactions/support.ts';
import { fund } from '../wallets/support.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;
let sandboxKey: string;

beforeAll(async () => {
  const api = await startTestApi();
  ({ server, sandbox, production } = api);
  sandboxKey = api.tenant.sandboxKey;
});
afterAll(() => server.close());

type Listed = {
  data: { id: string }[];
  pagination: { size: number; total: number; hasNextPage: boolean; page: number; nextCursor: string | null };
};

async function list(api: Client, path: string, query: string): Promise<Listed> {
  const response = await api.get(`${path}${path.includes('?') ? '&' : '?'}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/**
 * Walks a list by keyset, `limit` at a time, calling `meanwhile` between pages (with the page just read,
 * concurrently with the next read); answers every item seen, in order.
 */
async function walk(
  api: Client,
  path: string,
  limit: number,
  meanwhile: () => Promise<unknown> = async () => {},
): Promise<string[]> {
  const seen: string[] = [];
  let cursor = '';
  for (let pages = 0; pages < 100; pages++) {
    const [page] = await Promise.all([
      list(api, path, `limit=${limit}&startingAfter=${encodeURIComponent(cursor)}`),
      meanwhile(),
    ]);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    seen.push(...page.data.map((item) => item.id));
    if (!page.pagination.hasNextPage) {
      expect(page.pagination.nextCursor).toBeNull();
      return seen;
    }
    expect(page.pagination.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    cursor = page.pagination.nextCursor!;
  }
  throw new Error('the walk did not end');
}

/** Every item of a list as the page-number path answers it (one page of 50). */
const everything = async (api: Client, path: string) =>
  (await list(api, path, 'limit=50')).data.map((item) => item.id);

function expectStableWalk(walked: string[], existing: string[]) {
  // never an item twice, and every item that existed when the walk began, in the list's order
  expect(new Set(walked).size).toBe(walked.length);
  expect(walked.filter((id) => existing.includes(id))).toEqual(existing);
}

describe('startingAfter', { timeout: 120_000 }, () => {
  it('walks customers without repeating or skipping one while customers are created concurrently', async () => {
    const tenant = await server.newTenant('Keyset customers');
    const api = clientFor(server, tenant.productionKey);
    for (let i = 0; i < 7; i++) await createCustomer(api, individualBody());
    const existing = await everything(api, '/customers');
    expect(existing).toHaveLength(7);

    // page numbers repeat an item when one is created between two pages: the reason for the cursor
    const first = await list(api, '/customers', 'limit=2&page=1');
    await createCustomer(api, individualBody());
    const second = await list(api, '/customers', 'limit=2&page=2');
    expect(second.data[0]!.id).toBe(first.data[1]!.id);

    const existingNow = await everything(api, '/customers');
    const walked = await walk(api, '/customers', 2, () => createCustomer(api, individualBody()));
    expectStableWalk(walked, existingNow);
  });

  it('walks transactions of every type (two tables) while on-ramps and deposits are created concurrently', async () => {
    const tenant = await server.newTenant('Keyset transactions');
    const api = clientFor(server, tenant.sandboxKey);
    const customer = await approvedCustomer(api, individualBody());
    for (let i = 0; i < 3; i++) {
      await createOnRamp(api, customer.id, '10.00');
      await fund(api, customer.id, '5');
    }
    const existing = await everything(api, '/transactions');
    expect(existing).toHaveLength(6);
    let turn = 0;
    const walked = await walk(api, '/transactions', 2, () =>
      turn++ % 2 === 0 ? createOnRamp(api, customer.id, '11.00') : fund(api, customer.id, '1'),
    );
    expectStableWalk(walked, existing);
    // one customer's list, and a filtered one, walk by keyset as well
    expectStableWalk(
      await walk(api, `/transactions?customerId=${customer.id}`, 4),
      await everything(api, `/transactions?customerId=${customer.id}`),
    );
    const deposits = await everything(api, '/transactions?type=DEPOSIT');
    expect(deposits.length).toBeGreaterThanOrEqual(3);
    expectStableWalk(
      await walk(api, '/transactions?type=DEPOSIT', 2, () => fund(api, customer.id, '2')),
      deposits,
    );
    const filtered = await list(api, '/transactions?type=DEPOSIT', 'limit=2&startingAfter=');
    expect(filtered.pagination.total).toBe(
      (await list(api, '/transactions?type=DEPOSIT', 'limit=1')).pagination.total,
    );
  });

  it('walks bank accounts, limit requests, documents, webhook endpoints and deliveries', async () => {
    const customer = await approvedCustomer(sandbox, individualBody());
    for (let i = 0; i < 3; i++) {
      const created = await sandbox.post('/bank-accounts', accountBody(customer.id));
      expect(created.statusCode).toBe(201);
    }
    for (let i = 0; i < 3; i++) {
      const created = await sandbox.post(`/customers/${customer.id}/limit-requests`, {
        requested: { single: `${8000 + i}.00` },
      });
      expect(created.statusCode).toBe(201);
      await rejectInDatabase(server.ctx.db, created.json().id);
    }
    for (let i = 0; i < 3; i++) await uploadStatement(server.sandbox, sandboxKey, customer.id);
    for (let i = 0; i < 3; i++) {
      const created = await sandbox.post('/webhook-endpoints', { url: `https://93.184.215.14/hooks/${i}` });
      expect(created.statusCode).toBe(201);
    }
    const endpoint = (await list(sandbox, '/webhook-endpoints', 'limit=1')).data[0]!.id;
    for (let i = 0; i < 3; i++) await createCustomer(sandbox, individualBody());
    await eventually(
      () => list(sandbox, `/webhook-endpoints/${endpoint}/deliveries`, 'limit=1'),
      (page) => page.pagination.total >= 3,
      60_000,
    );

    for (const path of [
      `/bank-accounts?customerId=${customer.id}`,
      '/bank-accounts',
      `/customers/${customer.id}/limit-requests`,
      `/customers/${customer.id}/documents`,
      '/webhook-endpoints',
      `/webhook-endpoints/${endpoint}/deliveries`,
    ]) {
      const existing = await everything(sandbox, path);
      expect(existing.length, path).toBeGreaterThanOrEqual(3);
      expectStableWalk(await walk(sandbox, path, 2), existing);
    }
  });

  it('answers a page-number request with the next page number, and the first keyset page with a cursor', async () => {
    for (let i = 0; i < 3; i++) await createCustomer(production, individualBody());
    const byNumber = await list(production, '/customers', 'limit=2');
    expect(byNumber.pagination).toMatchObject({ page: 1, size: 2, hasNextPage: true, nextCursor: '2' });
    expect((await list(production, '/customers', 'limit=2&cursor=2')).pagination.page).toBe(2);

    const byKeyset = await list(production, '/customers', 'limit=2&startingAfter=');
    expect(byKeyset.data.map((c) => c.id)).toEqual(byNumber.data.map((c) => c.id));
    expect(byKeyset.pagination).toMatchObject({
      page: 1,
      size: 2,
      hasNextPage: true,
      total: byNumber.pagination.total,
    });
    expect(byKeyset.pagination.nextCursor).not.toBe('2');
    const next = await list(
      production,
      '/customers',
      `limit=2&startingAfter=${byKeyset.pagination.nextCursor}`,
    );
    expect(next.data[0]!.id).toBe((await list(production, '/customers', 'limit=2&page=2')).data[0]!.id);
  });

  it('refuses a cursor no answer gave, and a page number beside startingAfter, with 400', async () => {
    for (const bad of ['bm90IGEgY3Vyc29y', 'x', 'MjAyNi0wMS0wMVQwMDowMDowMC4wMDBaL25vdC1hLXV1aWQ']) {
      const response = await production.get(`/customers?startingAfter=${bad}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { pointer: '/query/startingAfter', message: 'must be a nextCursor from a previous answer' },
      ]);
    }
    const both = await production.get('/transactions?page=2&startingAfter=');
    expect(both.statusCode).toBe(400);
    expect(both.json().errors[0].pointer).toBe('/query/page');
    expect((await production.get('/customers?startingAfter=a+b')).statusCode).toBe(400);
  });
});

function clientFor(test: TestServer, key: string): Client {
  return client(key.startsWith('sk_live_') ? test.production : test.sandbox, key);
}
