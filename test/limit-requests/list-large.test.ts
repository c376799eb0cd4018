import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer, type CustomerView, createCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;
let projectId: string;
let customer: CustomerView;

const REQUESTS = 10_000;
const path = (customerId: string) => `/customers/${customerId}/limit-requests`;

/** Loads `count` reviewed requests for the customer in one statement, one minute apart, oldest first. */
async function bulkLoad(count: number, start: Date): Promise<void> {
  await server.ctx.db.query(
    `INSERT INTO limit_requests (id, customer_id, project_id, environment, requested_single, requested_daily,
                                 requested_monthly, status, review_comment, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, 'production', 100000 + j, 200000 + j, 400000 + j, 'REJECTED',
            'The bank statement does not support the requested volume',
            $3::timestamptz + j * interval '1 minute', $3::timestamptz + j * interval '1 minute'
       FROM generate_series(1, $4::int) AS j`,
    [customer.id, projectId, start, count],
  );
}

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant();
  projectId = tenant.projectId;
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
  // A list needs no approval: the requests are loaded directly, as history.
  customer = await createCustomer(production);
  await bulkLoad(REQUESTS, new Date('2025-01-01T00:00:00.000Z'));
  await server.ctx.db.exec('ANALYZE limit_requests');
}, 180_000); // loads 10,000 rows: more than the default allowance on a busy machine
afterAll(() => server.close());

describe('GET /customers/{id}/limit-requests for a customer with 10,000 requests', () => {
  it('answers page 1 exactly: the 20 newest and the total', async () => {
    const response = await production.get(path(customer.id));
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.pagination).toEqual({
      size: 20,
      total: REQUESTS,
      hasNextPage: true,
      page: 1,
      nextCursor: '2',
    });
    expect(page.data).toHaveLength(20);
    expect(page.data[0]).toMatchObject({
      requested: { single: '1100.00', daily: '2100.00', monthly: '4100.00' },
      status: 'REJECTED',
      createdAt: new Date(Date.parse('2025-01-01T00:00:00.000Z') + REQUESTS * 60_000).toISOString(),
    });
    const times = page.data.map((r: { createdAt: string }) => r.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('answers the last page and a page past the end', async () => {
    const last = (await production.get(`${path(customer.id)}?limit=50&page=200`)).json();
    expect(last.data).toHaveLength(50);
    expect(last.data.at(-1).requested.single).toBe('1000.01');
    expect(last.pagination).toEqual({
      size: 50,
      total: REQUESTS,
      hasNextPage: false,
      page: 200,
      nextCursor: null,
    });
    const past = (await production.get(`${path(customer.id)}?limit=50&page=201`)).json();
    expect(past.data).toEqual([]);
  });

  it('reads page 1 through the list index, without sorting or counting the rows', async () => {
    const params = `'${customer.id}', '${projectId}', 'production'`;
    const plan = async (sql: string) =>
      (await server.ctx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    const page = await plan(
      `SELECT * FROM limit_requests WHERE (customer_id, project_id, environment) = (${params})
        ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 0`,
    );
    expect(page).toMatch(/Index Scan using limit_requests_list/);
    expect(page).not.toMatch(/Sort/);
    const rows = await server.ctx.db.query<{ total: bigint }>(
      'SELECT total FROM limit_request_counts WHERE customer_id = $1',
      [customer.id],
    );
    expect(rows).toEqual([{ total: BigInt(REQUESTS) }]);
  });

  it('keeps the total exact through API creations, bulk loads and deletions', async () => {
    const other = await approvedCustomer(sandbox);
    const total = async () => (await sandbox.get(path(other.id))).json().pagination.total;
    expect(await total()).toBe(0);
    expect((await sandbox.post(path(other.id), { requested: { single: '10.00' } })).statusCode).toBe(201);
    expect(await total()).toBe(1);
    await server.ctx.db.query(
      `INSERT INTO limit_requests (id, customer_id, project_id, environment, requested_monthly, status,
                                   review_comment, created_at, updated_at)
       SELECT gen_random_uuid(), $1, $2, 'sandbox', 100, 'REJECTED', 'No', now(), now()
         FROM generate_series(1, 3)`,
      [other.id, projectId],
    );
    expect(await total()).toBe(4);
    await server.ctx.db.query("DELETE FROM limit_requests WHERE customer_id = $1 AND status = 'REJECTED'", [
      other.id,
    ]);
    expect(await total()).toBe(1);
    await expect(
      server.ctx.db.query('UPDATE limit_requests SET customer_id = $1 WHERE customer_id = $2', [
        customer.id,
        other.id,
      ]),
    ).rejects.toThrow(/cannot change its customer/);
  });
});
