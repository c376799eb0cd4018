import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from '../helpers/server.ts';
import {
  approvedIndividual,
  createOnRamp,
  type IsolatedServer,
  setRate,
  startIsolatedServer,
} from '../transactions/support.ts';

// A database of its own: these tests need to know exactly which rates exist.
let server: IsolatedServer;
let sandbox: Client;
let sandboxKey: string;

beforeAll(async () => {
  server = await startIsolatedServer({
    env: {
      PONTE_ONRAMP_FEE_BPS: '0',
      PONTE_ONRAMP_FEE_FLAT: '0.00',
      // no minimums and no sandbox default rates: these tests choose every figure themselves
      PONTE_TRANSACTION_MIN_AMOUNT: '0.01',
      PONTE_TRANSACTION_MIN_FEE: '0.00',
      PONTE_SANDBOX_RATE_BRL_USDC: 'none',
      PONTE_SANDBOX_RATE_BRL_USDT: 'none',
    },
  });
  sandboxKey = (await server.newTenant()).sandboxKey;
  sandbox = client(server.sandbox, sandboxKey);
});
afterAll(async () => {
  await server.close();
});

describe('conversion failures', () => {
  it('FAILS at TRADING, with the reason, when no rate is set for the pair', async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '50.00', { targetCurrency: 'USDT' });
    const response = await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, {});
    expect(response.statusCode).toBe(200);
    const done = response.json();
    expect(done.status).toBe('FAILED');
    expect(done.timeline.map((s: { status: string }) => s.status)).toEqual([
      'AWAITING_FUNDS',
      'TRANSFERRING_FIAT',
      'TRADING',
      'FAILED',
    ]);
    expect(done.failureReason).toBe(
      'No BRL/USDT rate is set, so the deposit could not be converted; it is held for refund',
    );
    expect(done.receipt).toBeNull();
  });

  it('FAILS at TRADING when the amount converts to less than 0.000001', async () => {
    await setRate(server, 'BRL/USDC', '0.00001');
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '0.01');
    const done = (await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, {})).json();
    expect(done.status).toBe('FAILED');
    expect(done.failureReason).toMatch(
      /^At 0.00001 BRL\/USDC the deposit converts to no representable amount/,
    );
  });

  it('converts at the rate in force when the transaction trades, not when it was created', async () => {
    await setRate(server, 'BRL/USDC', '0.2');
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '100.00');
    await setRate(server, 'BRL/USDC', '0.25');
    const done = (await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, {})).json();
    expect(done.receipt).toMatchObject({
      fee: '0.00',
      netAmount: '100.00',
      rate: '0.25',
      targetAmount: '25.000000',
    });
  });

  it('takes a deposit request without a body: the requested amount', async () => {
    await setRate(server, 'BRL/USDC', '0.2');
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '10.00');
    const response = await server.sandbox.inject({
      method: 'POST',
      url: `/sandbox/transactions/${created.id}/deposit`,
      headers: { authorization: `Bearer ${sandboxKey}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('SUCCESS');
    expect(response.json().receipt.targetAmount).toBe('2.000000');
  });
});
