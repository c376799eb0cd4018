import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateLimitRequestReview } from '../../src/modules/limit-requests/repo.ts';
import { approvedCustomer, type CustomerView, createCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestApi, type TestServer } from '../helpers/server.ts';
import { rejectInDatabase, UNKNOWN_ID } from './support.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;
let otherTenant: Client;

beforeAll(async () => {
  ({ server, sandbox, production } = await startTestApi());
  otherTenant = client(server.sandbox, (await server.newTenant('Other partner')).sandboxKey);
});
afterAll(() => server.close());

const path = (customerId: string) => `/customers/${customerId}/limit-requests`;
type LimitRequest = { id: string; [key: string]: unknown };
const ids = (page: { data: LimitRequest[] }) => page.data.map((r) => r.id);

/** Creates `count` requests for the customer, each reviewed before the next; returns them oldest first. */
async function requestsOf(customer: CustomerView, count: number): Promise<LimitRequest[]> {
  const out: LimitRequest[] = [];
  for (let i = 0; i < count; i++) {
    const response = await sandbox.post(path(customer.id), { requested: { single: `${i + 1}00.00` } });
    if (response.statusCode !== 201) throw new Error(`create: ${response.statusCode} ${response.body}`);
    const request = response.json();
    if (i < count - 1) await rejectInDatabase(server.ctx.db, request.id);
    out.push(request);
  }
  return out;
}

describe('GET /customers/{id}/limit-requests/{limitRequestId}', () => {
  it('answers every field of a reviewed request, approved amounts as two-decimal strings', async () => {
    const customer = await approvedCustomer(sandbox);
    const created = (
      await sandbox.post(path(customer.id), { requested: { single: '1500', daily: '3000', monthly: '9000' } })
    ).json();
    const reviewedAt = new Date(Date.parse(created.createdAt) + 60_000);
    await updateLimitRequestReview(server.ctx.db, created.id, {
      status: 'PARTIALLY_APPROVED',
      approved: { single: 100000n, daily: 300000n, monthly: 500050n },
      reviewComment: 'Monthly limit granted up to the statement average',
      at: reviewedAt,
    });
    const response = await sandbox.get(`${path(customer.id)}/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: created.id,
      customerId: customer.id,
      requested: { single: '1500.00', daily: '3000.00', monthly: '9000.00' },
      approved: { single: '1000.00', daily: '3000.00', monthly: '5000.50' },
      supportingDocumentType: null,
      supportingDocumentId: null,
      status: 'PARTIALLY_APPROVED',
      reviewComment: 'Monthly limit granted up to the statement average',
      createdAt: created.createdAt,
      updatedAt: reviewedAt.toISOString(),
    });
  });

  it('answers 404 for an unknown request, another customer’s, another tenant’s and another environment’s', async () => {
    const customer = await approvedCustomer(sandbox);
    const [request] = await requestsOf(customer, 1);
    const sibling = await approvedCustomer(sandbox);
    const answers = await Promise.all([
      sandbox.get(`${path(customer.id)}/${UNKNOWN_ID}`),
      sandbox.get(`${path(sibling.id)}/${request!.id}`),
      sandbox.get(`${path(UNKNOWN_ID)}/${request!.id}`),
      otherTenant.get(`${path(customer.id)}/${request!.id}`),
      production.get(`${path(customer.id)}/${request!.id}`),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'not_found', detail: 'Limit request not found' });
    }
  });

  it('answers 400 with pointers for malformed ids', async () => {
    const response = await sandbox.get('/customers/abc/limit-requests/def');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { pointer: '/path/id', message: 'must be a valid UUID' },
      { pointer: '/path/limitRequestId', message: 'must be a valid UUID' },
    ]);
  });
});

describe('GET /customers/{id}/limit-requests', () => {
  let customer: CustomerView;
  let created: LimitRequest[];
  beforeAll(async () => {
    customer = await approvedCustomer(sandbox);
    created = await requestsOf(customer, 5);
  });

  it('lists newest first with exact pagination, page and its synonym cursor', async () => {
    const newestFirst = created.map((r) => r.id).reverse();
    const first = (await sandbox.get(`${path(customer.id)}?limit=2`)).json();
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.pagination).toEqual({ size: 2, total: 5, hasNextPage: true, page: 1, nextCursor: '2' });
    const second = (
      await sandbox.get(`${path(customer.id)}?limit=2&cursor=${first.pagination.nextCursor}`)
    ).json();
    expect(ids(second)).toEqual(newestFirst.slice(2, 4));
    expect(second.pagination).toEqual({ size: 2, total: 5, hasNextPage: true, page: 2, nextCursor: '3' });
    const last = (await sandbox.get(`${path(customer.id)}?limit=2&page=3`)).json();
    expect(ids(last)).toEqual(newestFirst.slice(4));
    expect(last.pagination).toEqual({ size: 2, total: 5, hasNextPage: false, page: 3, nextCursor: null });
  });

  it('answers pages asked for together each with its own items and total, another tenant’s customer 404', async () => {
    const other = await approvedCustomer(sandbox);
    const otherCreated = await requestsOf(other, 3);
    const newestFirst = (list: LimitRequest[]) => list.map((r) => r.id).reverse();
    const asks = [
      ...Array.from({ length: 6 }, (_, i) => ({
        api: sandbox,
        url: `${path(customer.id)}?limit=2&page=${(i % 3) + 1}`,
        ids: newestFirst(created).slice((i % 3) * 2, (i % 3) * 2 + 2),
        total: 5,
      })),
      ...Array.from({ length: 6 }, () => ({
        api: sandbox,
        url: path(other.id),
        ids: newestFirst(otherCreated),
        total: 3,
      })),
      ...Array.from({ length: 4 }, () => ({ api: otherTenant, url: path(customer.id), ids: null, total: 0 })),
    ];
    const answers = await Promise.all(asks.map(({ api, url }) => api.get(url)));
    answers.forEach((answer, index) => {
      const ask = asks[index]!;
      if (ask.ids === null) {
        expect(answer.statusCode).toBe(404);
        return;
      }
      expect(answer.statusCode).toBe(200);
      expect(ids(answer.json())).toEqual(ask.ids);
      expect(answer.json().pagination.total).toBe(ask.total);
    });
  });

  it('answers the same items as reading each one', async () => {
    const page = (await sandbox.get(path(customer.id))).json();
    for (const item of page.data) {
      expect((await sandbox.get(`${path(customer.id)}/${item.id}`)).json()).toEqual(item);
    }
    expect(page.data[0]).toEqual(created.at(-1));
  });

  it('uses a page size of 20 by default and answers exactly full last pages', async () => {
    const all = (await sandbox.get(path(customer.id))).json();
    expect(all.pagination).toEqual({ size: 20, total: 5, hasNextPage: false, page: 1, nextCursor: null });
    const exact = (await sandbox.get(`${path(customer.id)}?limit=5`)).json();
    expect(exact.pagination).toEqual({ size: 5, total: 5, hasNextPage: false, page: 1, nextCursor: null });
    const max = await sandbox.get(`${path(customer.id)}?limit=50`);
    expect(max.statusCode).toBe(200);
  });

  it('answers empty data for a page past the end', async () => {
    const past = (await sandbox.get(`${path(customer.id)}?limit=2&page=4`)).json();
    expect(past).toEqual({
      data: [],
      pagination: { size: 2, total: 5, hasNextPage: false, page: 4, nextCursor: null },
    });
  });

  it('answers an empty list for a customer without requests', async () => {
    const fresh = await createCustomer(production);
    const response = await production.get(path(fresh.id));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [],
      pagination: { size: 20, total: 0, hasNextPage: false, page: 1, nextCursor: null },
    });
  });

  it('answers 404 for an unknown customer, another tenant’s and another environment’s', async () => {
    for (const answer of [
      await sandbox.get(path(UNKNOWN_ID)),
      await otherTenant.get(path(customer.id)),
      await production.get(path(customer.id)),
    ]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'not_found', detail: 'Customer not found' });
    }
  });

  it.each([
    ['limit=0', [{ pointer: '/query/limit', message: 'must be >= 1' }]],
    ['limit=51', [{ pointer: '/query/limit', message: 'must be <= 50' }]],
    ['page=0', [{ pointer: '/query/page', message: 'must be >= 1' }]],
    ['cursor=0', [{ pointer: '/query/cursor', message: 'must be a page number such as "2"' }]],
    ['page=first', [{ pointer: '/query/page', message: 'must be integer' }]],
    ['limit=2.5', [{ pointer: '/query/limit', message: 'must be integer' }]],
    ['page=2&cursor=3', [{ pointer: '/query/cursor', message: 'must equal page when both are given' }]],
    ['size=10', [{ pointer: '/query/size', message: 'is not a known field' }]],
  ])('refuses %s with 400 and a pointer', async (query, errors) => {
    const response = await sandbox.get(`${path(customer.id)}?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_request', errors });
  });
});
