/**
 * `GET /transactions` filters: customerId, status, type, currency, createdFrom and createdTo (both
 * inclusive), combined; the same filter the dashboard's list applies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { fund } from '../wallets/support.ts';
import { approvedIndividual, createOnRamp } from './support.ts';

let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startTestServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(() => server.close());

type Tx = { id: string; status: string; type: string; createdAt: string; customerId: string };
const list = async (query: string): Promise<{ data: Tx[]; pagination: { total: number } }> => {
  const response = await sandbox.get(`/transactions?limit=50&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const ids = (page: { data: Tx[] }) => page.data.map((tx) => tx.id);

describe('GET /transactions filters', () => {
  it('narrows by status, type, currency and customer, each alone and combined, with the total of what matches', async () => {
    const [ana, bia] = [await approvedIndividual(sandbox), await approvedIndividual(sandbox)];
    const waiting = await createOnRamp(sandbox, ana.id, '10.00');
    const failed = await createOnRamp(sandbox, ana.id, '11.00');
    await sandbox.post(`/sandbox/transactions/${failed.id}/deposit`, { amount: '1.00' });
    const deposit = await fund(sandbox, bia.id, '5');

    expect(ids(await list('status=AWAITING_FUNDS'))).toEqual([waiting.id]);
    const failedPage = await list('status=FAILED');
    expect(ids(failedPage)).toEqual([failed.id]);
    expect(failedPage.pagination.total).toBe(1);
    expect(ids(await list('type=DEPOSIT'))).toEqual([deposit.id]);
    expect(ids(await list('currency=USDC'))).toEqual([deposit.id]);
    expect(ids(await list('currency=BRL'))).toEqual([failed.id, waiting.id]);
    expect(ids(await list(`type=ON_RAMP&customerId=${bia.id}`))).toEqual([]);
    expect(ids(await list(`type=ON_RAMP&status=FAILED&customerId=${ana.id}`))).toEqual([failed.id]);
  });

  it('narrows by creation instants, both bounds inclusive', async () => {
    const customer = await approvedIndividual(sandbox);
    const first = await createOnRamp(sandbox, customer.id, '10.00');
    const second = await createOnRamp(sandbox, customer.id, '12.00');
    const third = await createOnRamp(sandbox, customer.id, '13.00');
    const of = `customerId=${customer.id}`;
    expect(ids(await list(`${of}&createdFrom=${second.createdAt}`))).toEqual([third.id, second.id]);
    expect(ids(await list(`${of}&createdTo=${second.createdAt}`))).toEqual([second.id, first.id]);
    expect(ids(await list(`${of}&createdFrom=${second.createdAt}&createdTo=${second.createdAt}`))).toEqual([
      second.id,
    ]);
  });

  it('refuses an unknown value, a malformed instant and an empty range with 400 naming the field', async () => {
    for (const [query, pointer] of [
      ['status=LOST', '/query/status'],
      ['type=SWAP', '/query/type'],
      ['currency=EUR', '/query/currency'],
      ['createdFrom=yesterday', '/query/createdFrom'],
      ['createdFrom=2026-02-01T00:00:00.000Z&createdTo=2026-01-01T00:00:00.000Z', '/query/createdTo'],
    ]) {
      const response = await sandbox.get(`/transactions?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errors[0].pointer, query).toBe(pointer);
    }
  });
});
