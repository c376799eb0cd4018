/**
 * A settlement the request could not finish is left to the workers, never silently: the failure is logged
 * with the transaction's id, and the transaction stays where the last committed step left it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleNow } from '../../src/modules/transactions/in-flight.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { startTestApi, type TestApi } from '../helpers/server.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.server.close());

describe('a settlement left to the workers', () => {
  it('logs the failure with the transaction id and changes nothing', async () => {
    const customer = await approvedCustomer(api.sandbox);
    const onRamp = (
      await api.sandbox.post('/transactions/on-ramp', {
        customerId: customer.id,
        currency: 'BRL',
        amount: '12.00',
      })
    ).json();
    const logged: { obj: Record<string, unknown>; msg: string }[] = [];
    const log = {
      error: (obj: unknown, msg: string) => logged.push({ obj: obj as Record<string, unknown>, msg }),
    };
    const broken = () => Promise.reject(new Error('node answered 502'));

    await settleNow({ ...api.server.ctx, log }, onRamp.id, broken);

    expect(logged).toEqual([
      {
        obj: { err: expect.objectContaining({ message: 'node answered 502' }), transactionId: onRamp.id },
        msg: 'settlement stopped; the workers carry the transaction on',
      },
    ]);
    expect((await api.sandbox.get(`/transactions/${onRamp.id}`)).json().status).toBe('AWAITING_FUNDS');
  });
});
