/**
 * The Travel Rule threshold counts a customer's transfers to one counterparty over a rolling 24 h: the
 * transfer that brings the sum to the threshold needs `travelRule`, and a sum split into transfers each
 * below it opens a STRUCTURING compliance case that holds the completing transfer until an operator
 * decides. The threshold is the default, 1000 USD; the test moves its clock across the window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer, individualBody } from '../helpers/factories.ts';
import { startTestApi, type TestApi } from '../helpers/server.ts';
import { fund, walletOn } from '../wallets/support.ts';

let now = Date.parse('2026-11-20T12:00:00Z');
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true, clock: () => new Date(now) });
});
afterAll(() => api.server.close());

const EXTERNAL = '0x52908400098527886E0F7030069857D2E4169EE7';
const OTHER_EXTERNAL = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const RULE = { beneficiary: { name: 'Clara Nunes' }, walletType: 'SELF_HOSTED' };

const balanceOf = async (customerId: string) =>
  (await walletOn(api.sandbox, customerId, 'ETHEREUM')).balances.find((b) => b.currency === 'USDC')?.amount;

async function funded(name: string, deposits: number) {
  const customer = await approvedCustomer(api.sandbox, individualBody({ name }));
  for (let i = 0; i < deposits; i++) await fund(api.sandbox, customer.id, '999');
  return customer;
}

const transfer = (from: string, amount: string, extra: Record<string, unknown> = {}) =>
  api.sandbox.post('/transactions/transfer', { currency: 'USDC', from, to: EXTERNAL, amount, ...extra });

async function openCases(customerId: string) {
  const answer = await api.operator.get(`/operator/screening/cases?customerId=${customerId}&status=OPEN`);
  expect(answer.statusCode).toBe(200);
  return answer.json().data as {
    id: string;
    reason: string;
    subjectType: string;
    subjectId: string;
    screened: { address: string; total: string; transfers: { id: string; amount: string }[] };
  }[];
}

describe('Travel Rule over a rolling 24 h', { timeout: 120_000 }, () => {
  it('requires travelRule on the transfer that brings the 24 h sum to one address to the threshold', async () => {
    const customer = await funded('Otavio Prates', 4);
    const first = await transfer(customer.id, '999');
    expect(first.statusCode).toBe(201);
    expect(first.json().status).not.toBe('FAILED');
    // 999 + 999 to the same address within 24 h: the second needs the beneficiary's data
    const second = await transfer(customer.id, '999');
    expect(second.statusCode).toBe(400);
    expect(second.json().errors[0]).toMatchObject({ pointer: '/body/travelRule' });
    expect(second.json().errors[0].message).toMatch(/1998\.000000 USD/);
    expect(await balanceOf(customer.id)).toBe('2997.000000');
    // another address is another counterparty: its own sum
    expect((await transfer(customer.id, '999', { to: OTHER_EXTERNAL })).statusCode).toBe(201);
    // a single transfer of 2,997 is refused without the data too, as before
    expect((await transfer(customer.id, '1998')).statusCode).toBe(400);
    expect(await balanceOf(customer.id)).toBe('1998.000000');
  });

  it('a sum split into transfers below the threshold opens a STRUCTURING case holding the transfer that completes it', async () => {
    const customer = await funded('Priscila Damasceno', 3);
    const first = await transfer(customer.id, '999');
    expect(first.statusCode).toBe(201);
    expect(await openCases(customer.id)).toEqual([]);
    const second = await transfer(customer.id, '999', { travelRule: RULE });
    expect(second.statusCode).toBe(201);
    const held = second.json();
    expect(held.status).toBe('PROCESSING');
    const [found, ...more] = await openCases(customer.id);
    expect(more).toEqual([]);
    expect(found).toMatchObject({
      reason: 'STRUCTURING',
      subjectType: 'TRANSFER',
      subjectId: held.id,
      screened: { address: EXTERNAL, total: '1998.000000' },
    });
    expect(found!.screened.transfers.map((t) => [t.id, t.amount])).toEqual([
      [first.json().id, '999.000000'],
      [held.id, '999.000000'],
    ]);
    // held: nothing sent, the amount reserved
    const read = await api.sandbox.get(`/transactions/${held.id}`);
    expect(read.json()).toMatchObject({ status: 'PROCESSING' });
    expect(read.json().transactionHash ?? null).toBeNull();
    expect(await balanceOf(customer.id)).toBe('999.000000');
    // the operator confirms: the transfer FAILED, the amount back in the wallet
    const decided = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CONFIRM',
      comment: 'Split to avoid the Travel Rule',
    });
    expect(decided.statusCode).toBe(200);
    expect((await api.sandbox.get(`/transactions/${held.id}`)).json().status).toBe('FAILED');
    expect(await balanceOf(customer.id)).toBe('1998.000000');
  });

  it('one transfer at or above the threshold with its data opens no case; transfers older than 24 h no longer count', async () => {
    const customer = await funded('Rogerio Falcao', 3);
    expect((await transfer(customer.id, '1500', { travelRule: RULE })).statusCode).toBe(201);
    expect(await openCases(customer.id)).toEqual([]);
    now += 24 * 60 * 60 * 1000 + 1000;
    expect((await transfer(customer.id, '999')).statusCode).toBe(201);
    expect((await transfer(customer.id, '1')).statusCode).toBe(400);
    expect(await openCases(customer.id)).toEqual([]);
  });
});
