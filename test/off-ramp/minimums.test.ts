import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { type Client, client } from '../helpers/server.ts';
import { type IsolatedServer, onRamp, startIsolatedServer } from '../transactions/support.ts';
import { customerWithAccount, fund, offRamp } from './support.ts';

let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startIsolatedServer({
    env: { PONTE_TRANSACTION_MIN_AMOUNT: '1.00', PONTE_TRANSACTION_MIN_FEE: '0.25' },
  });
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

describe('minimum transaction amount and minimum fee', () => {
  it('refuses an on-ramp worth less than the minimum amount with 400', async () => {
    const { customer } = await customerWithAccount(sandbox);
    for (const amount of ['0.01', '0.99']) {
      const response = await onRamp(sandbox, customer.id, amount);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { pointer: '/body/amount', message: 'must be worth at least 1.00 BRL' },
      ]);
    }
  });

  it('charges at least the minimum fee on an on-ramp', async () => {
    const { customer } = await customerWithAccount(sandbox);
    const created = (await onRamp(sandbox, customer.id, '10.00')).json();
    const done = (await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, {})).json();
    // 0.50% of 10.00 is 0.05: the minimum 0.25 applies
    expect(done.receipt).toMatchObject({ fee: '0.25', netAmount: '9.75', targetAmount: '1.755000' });
  });

  it('charges at least the minimum fee (converted to the source currency) on an off-ramp, and refuses one below the minimum amount', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '100.00');
    const body = { customerId: customer.id, bankAccountId: accountId, sourceCurrency: 'USDC' };
    const small = await offRamp(sandbox, { ...body, sourceAmount: '0.18' }); // 0.99 BRL
    expect(small.statusCode).toBe(400);
    expect(small.json().errors[0]).toEqual({
      pointer: '/body/sourceAmount',
      message: 'must be worth at least 1.00 BRL',
    });
    const created = await offRamp(sandbox, { ...body, sourceAmount: '1' });
    expect(created.statusCode).toBe(201);
    // 0.50% of 1 USDC is 0.005000; 0.25 BRL at 5.50 is 0.045455 USDC (rounded up)
    expect(created.json().receipt).toMatchObject({
      fee: '0.045455',
      netAmount: '0.954545',
      targetAmount: '5.24',
    });
  });

  it('reads the settings from the environment and refuses malformed ones', () => {
    const config = loadConfig({ PONTE_TRANSACTION_MIN_AMOUNT: '5.00', PONTE_TRANSACTION_MIN_FEE: '0.10' });
    expect(config.moneyOut).toMatchObject({ minimumAmount: 500n, minimumFee: 10n });
    expect(loadConfig({}).moneyOut).toMatchObject({ minimumAmount: 100n, minimumFee: 1n });
    expect(() => loadConfig({ PONTE_TRANSACTION_MIN_FEE: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ PONTE_SANDBOX_RATE_USDC_BRL: '0' })).toThrow(ConfigError);
    expect(
      loadConfig({ PONTE_SANDBOX_RATE_USDC_BRL: 'none' }).moneyOut.sandboxRates['USDC/BRL'],
    ).toBeUndefined();
  });
});
