/**
 * `GET /transactions`: on- and off-ramps and stablecoin transfers and deposits merged newest first, with
 * the exact `pagination.total` the database keeps in `transaction_counts` under any writer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { ALL_CUSTOMERS } from '../../src/db/transaction-filter.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { fund, transfer } from '../wallets/support.ts';
import { approvedIndividual, createOnRamp } from './support.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;
let stranger: Client;
let projectId: string;

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant();
  projectId = tenant.projectId;
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
  stranger = client(server.sandbox, (await server.newTenant('Stranger')).sandboxKey);
});
afterAll(() => server.close());

type Listed = { data: { id: string }[]; pagination: { total: number; size: number; hasNextPage: boolean } };
const list = async (api: Client, query: string): Promise<Listed> => {
  const response = await api.get(`/transactions${query}`);
  expect(response.statusCode).toBe(200);
  return response.json();
};
const ids = (page: Listed) => page.data.map((item) => item.id);

const counts = async (customerId: string) =>
  (
    await server.ctx.db.query<{ total: bigint }>(
      `SELECT sum(total) AS total FROM transaction_counts
        WHERE project_id = $1 AND environment = 'sandbox' AND customer_id = $2`,
      [projectId, customerId],
    )
  ).map((row) => Number(row.total));

describe('GET /transactions', () => {
  it('merges ramps, transfers and deposits newest first, with totals counted on both sides of a transfer', async () => {
    const before = (await list(sandbox, '?limit=1')).pagination.total;
    const [payer, payee] = [await approvedIndividual(sandbox), await approvedIndividual(sandbox)];
    const ramp = await createOnRamp(sandbox, payer.id, '12.00');
    const deposit = await fund(sandbox, payer.id, '50');
    const moved = (
      await transfer(sandbox, { currency: 'USDC', from: payer.id, to: payee.id, amount: '5' })
    ).json();
    const rampOfPayee = await createOnRamp(sandbox, payee.id, '7.00');

    const newest = [rampOfPayee.id, moved.id, deposit.id, ramp.id];
    const all = await list(sandbox, '?limit=4');
    expect(ids(all)).toEqual(newest);
    expect(all.pagination.total).toBe(before + 4);
    const ofPayer = await list(sandbox, `?customerId=${payer.id}`);
    expect(ids(ofPayer)).toEqual([moved.id, deposit.id, ramp.id]);
    expect(ofPayer.pagination.total).toBe(3);
    const ofPayee = await list(sandbox, `?customerId=${payee.id}`);
    expect(ids(ofPayee)).toEqual([rampOfPayee.id, moved.id]);
    expect(ofPayee.pagination.total).toBe(2);
    // the count of all customers is kept under the nil UUID: asked as a customer, it is no one's
    const nobody = await list(sandbox, `?customerId=${ALL_CUSTOMERS}`);
    expect(nobody).toMatchObject({ data: [], pagination: { total: 0 } });
    // pages across both tables: the second page starts where the first ended
    const second = await list(sandbox, `?customerId=${payer.id}&limit=2&cursor=2`);
    expect(ids(second)).toEqual([ramp.id]);
    expect(second.pagination).toMatchObject({ total: 3, hasNextPage: false });
  });

  it('answers pages asked for together, each its own list and exact total, across tenants and environments', async () => {
    const customers = [await approvedIndividual(sandbox), await approvedIndividual(sandbox)];
    const made = new Map<string, string[]>();
    for (const [index, customer] of customers.entries()) {
      const created: string[] = [];
      for (let n = 0; n <= index + 1; n++)
        created.unshift((await createOnRamp(sandbox, customer.id, '3.00')).id);
      made.set(customer.id, created);
    }
    const tenantTotal = (await list(sandbox, '?limit=1')).pagination.total;
    const theirs = await approvedIndividual(stranger);
    await createOnRamp(stranger, theirs.id, '4.00');
    const strangerTotal = (await list(stranger, '?limit=1')).pagination.total;

    const asked = Array.from({ length: 30 }, (_, n) => n);
    const pages = await Promise.all(
      asked.map(async (n) => {
        if (n % 5 === 0) return { n, page: await list(production, '?limit=5') };
        if (n % 5 === 1) return { n, page: await list(stranger, `?customerId=${customers[0]!.id}`) };
        if (n % 5 === 2) return { n, page: await list(stranger, '?limit=1') };
        if (n % 5 === 3) return { n, page: await list(sandbox, '?limit=1') };
        return { n, page: await list(sandbox, `?customerId=${customers[n % 2]!.id}`) };
      }),
    );
    for (const { n, page } of pages) {
      if (n % 5 === 0) expect(page).toMatchObject({ data: [], pagination: { total: 0 } });
      if (n % 5 === 1) expect(page).toMatchObject({ data: [], pagination: { total: 0 } });
      if (n % 5 === 2) expect(page.pagination.total).toBe(strangerTotal);
      if (n % 5 === 3) expect(page.pagination.total).toBe(tenantTotal);
      if (n % 5 === 4) {
        const expected = made.get(customers[n % 2]!.id)!;
        expect(ids(page)).toEqual(expected);
        expect(page.pagination.total).toBe(expected.length);
      }
    }
  });
});

describe('transaction_counts', () => {
  it('counts every transaction written at once by many requests, ramps and transfers together', async () => {
    const customers = await Promise.all(Array.from({ length: 8 }, () => approvedIndividual(sandbox)));
    await Promise.all(customers.map((customer) => fund(sandbox, customer.id, '100')));
    const before = (await list(sandbox, '?limit=1')).pagination.total;
    const answers = await Promise.all(
      customers.flatMap((customer, index) => [
        sandbox.post('/transactions/on-ramp', { customerId: customer.id, currency: 'BRL', amount: '5.00' }),
        sandbox.post('/transactions/on-ramp', { customerId: customer.id, currency: 'BRL', amount: '6.00' }),
        transfer(sandbox, {
          currency: 'USDC',
          from: customer.id,
          to: customers[(index + 1) % customers.length]!.id,
          amount: '1',
        }),
      ]),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
    expect((await list(sandbox, '?limit=1')).pagination.total).toBe(before + answers.length);
    for (const customer of customers) {
      // its deposit, two on-ramps, the transfer it sent and the one it received
      expect((await list(sandbox, `?customerId=${customer.id}`)).pagination.total).toBe(5);
    }
    const [counted] = await server.ctx.db.query<{ n: bigint }>(
      `SELECT (SELECT count(*) FROM transactions WHERE project_id = $1 AND environment = 'sandbox')
            + (SELECT count(*) FROM chain_transactions WHERE project_id = $1 AND environment = 'sandbox') AS n`,
      [projectId],
    );
    expect((await list(sandbox, '?limit=1')).pagination.total).toBe(Number(counted!.n));
  });

  it('follows rows written and removed outside the API, and refuses moving a transaction to another customer', async () => {
    const [customer, other] = [await approvedIndividual(sandbox), await approvedIndividual(sandbox)];
    const created = await createOnRamp(sandbox, customer.id, '9.00');
    const tenantBefore = (await counts(ALL_CUSTOMERS))[0]!;
    expect(await counts(customer.id)).toEqual([1]);

    // a bulk load: two rows in one statement
    const copies = [newId(), newId()];
    await server.ctx.db.query(
      `INSERT INTO transactions (id, customer_id, project_id, environment, type, status, currency, amount,
              target_currency, rail, pix_txid, br_code, expires_at, fee_basis_points, fee_flat, limit_amount_brl,
              blockchain, timeline, created_at, updated_at)
       SELECT c.id, t.customer_id, t.project_id, t.environment, t.type, t.status, t.currency, t.amount,
              t.target_currency, t.rail, substr(md5(c.id::text), 1, 25), t.br_code, t.expires_at,
              t.fee_basis_points, t.fee_flat, t.limit_amount_brl, t.blockchain, t.timeline, t.created_at,
              t.updated_at
         FROM transactions t CROSS JOIN unnest($2::uuid[]) AS c (id) WHERE t.id = $1`,
      [created.id, copies],
    );
    expect(await counts(customer.id)).toEqual([3]);
    expect((await list(sandbox, `?customerId=${customer.id}`)).pagination.total).toBe(3);
    expect((await counts(ALL_CUSTOMERS))[0]!).toBe(tenantBefore + 2);

    await server.ctx.db.query('DELETE FROM transactions WHERE id = ANY($1::uuid[])', [copies]);
    expect(await counts(customer.id)).toEqual([1]);
    expect((await counts(ALL_CUSTOMERS))[0]!).toBe(tenantBefore);

    await expect(
      server.ctx.db.query('UPDATE transactions SET customer_id = $2 WHERE id = $1', [created.id, other.id]),
    ).rejects.toThrow(/cannot change its customers/);
    expect((await list(sandbox, `?customerId=${customer.id}`)).pagination.total).toBe(1);
  });
});
