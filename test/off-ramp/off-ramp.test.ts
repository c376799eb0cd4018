import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer, createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { createOnRamp, type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import {
  balances,
  customerWithAccount,
  eventTypes,
  fund,
  ledgerBalances,
  offRamp,
  operatorPost,
  settled,
  thirdPartyAccount,
  unbalanced,
} from './support.ts';

// Sandbox default rates (BRL/USDC 0.18, USDC/BRL 5.50), 0.50% fees both ways, minimum fee 0.01 BRL.
let server: IsolatedServer;
let sandbox: Client;
let stranger: Client;
let sandboxKey: string;

beforeAll(async () => {
  server = await startIsolatedServer();
  sandboxKey = (await server.newTenant()).sandboxKey;
  sandbox = client(server.sandbox, sandboxKey);
  stranger = client(server.sandbox, (await server.newTenant('Stranger')).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

describe('POST /transactions/off-ramp', () => {
  it("pays USDC out to the customer's PIX account: TRANSFERRING_STABLECOIN → TRADING → TRANSFERRING_FIAT → SUCCESS", async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    expect(await fund(sandbox, customer.id, '1000.00')).toBe('179.100000');
    const response = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '100',
      memo: 'Aluguel',
      metadata: { orderId: 'A-17' },
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      customerId: customer.id,
      type: 'OFF_RAMP',
      status: 'TRANSFERRING_STABLECOIN',
      request: {
        sourceCurrency: 'USDC',
        sourceAmount: '100.000000',
        targetCurrency: 'BRL',
        bankAccountId: accountId,
        purpose: 'PERSONAL_ACCOUNT',
        memo: 'Aluguel',
        exchangeRateId: null,
      },
      payout: { rail: 'PIX', bankAccountId: accountId, endToEndId: null },
      // fee 0.50% of 100 USDC; 99.5 × 5.50 = 547.25 BRL
      receipt: {
        sourceCurrency: 'USDC',
        sourceAmount: '100.000000',
        fee: '0.500000',
        fees: {
          platform: { amount: '0.500000', currency: 'USDC' },
          partner: { amount: '0.000000', currency: 'USDC' },
        },
        netAmount: '99.500000',
        rate: '5.5',
        targetCurrency: 'BRL',
        targetAmount: '547.25',
      },
      failureReason: null,
      returnReason: null,
      metadata: { orderId: 'A-17' },
    });
    // reserved at once
    expect((await balances(sandbox, customer.id)).USDC).toBe('79.100000');
    const done = await settled(sandbox, created.id);
    expect(done.status).toBe('SUCCESS');
    expect(done.timeline.map((s: { status: string }) => s.status)).toEqual([
      'TRANSFERRING_STABLECOIN',
      'TRADING',
      'TRANSFERRING_FIAT',
      'SUCCESS',
    ]);
    expect(done.payout.endToEndId).toMatch(/^E00000000\d{12}[A-Za-z0-9]{11}$/);
    expect((await balances(sandbox, customer.id)).USDC).toBe('79.100000');
    expect(await ledgerBalances(server, customer.id)).toEqual({ BRL: 0n, USDC: 79_100_000n });
    expect(await unbalanced(server)).toEqual([]);
    expect(await eventTypes(server, created.id)).toEqual([
      'transaction.created',
      'transaction.updated',
      'transaction.updated',
      'transaction.updated',
    ]);
    expect((await sandbox.get(`/transactions/${created.id}`)).json()).toEqual(done);
  });

  it('FAILS a payout the rail rejects (sandbox: a sourceAmount ending in .13), the reserve back in the balance', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '1000.00');
    const created = (
      await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '10.13',
      })
    ).json();
    const done = await settled(sandbox, created.id);
    expect(done.status).toBe('FAILED');
    expect(done.failureReason).toMatch(/rejected.*sourceAmount ending in \.13.*reserve went back/);
    expect((await balances(sandbox, customer.id)).USDC).toBe('179.100000');
    expect(await ledgerBalances(server, customer.id)).toEqual({ BRL: 0n, USDC: 179_100_000n });
    expect(await unbalanced(server)).toEqual([]);
  });

  it('RETURNED: the BRL lands in the BRL balance, from which a BRL off-ramp pays it out again', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '1000.00');
    const created = (
      await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '20',
      })
    ).json();
    expect((await settled(sandbox, created.id)).status).toBe('SUCCESS');
    const returned = await sandbox.post(`/sandbox/transactions/${created.id}/return`, {
      reason: 'Conta encerrada',
    });
    expect(returned.statusCode).toBe(200);
    expect(returned.json()).toMatchObject({ status: 'RETURNED', returnReason: 'Conta encerrada' });
    // 20 × 0.995 × 5.50 = 109.45 BRL back
    expect(await balances(sandbox, customer.id)).toMatchObject({ USDC: '159.100000', BRL: '109.45' });
    expect((await sandbox.post(`/sandbox/transactions/${created.id}/return`, {})).statusCode).toBe(409);

    const again = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'BRL',
      sourceAmount: '109.45',
    });
    expect(again.statusCode).toBe(201);
    // 0.50% of 109.45 = 0.547 → 0.55; 108.90 paid out at 1
    expect(again.json().receipt).toMatchObject({
      fee: '0.55',
      netAmount: '108.90',
      rate: '1',
      targetAmount: '108.90',
    });
    expect((await settled(sandbox, again.json().id)).status).toBe('SUCCESS');
    expect((await balances(sandbox, customer.id)).BRL).toBe('0.00');
    expect(await unbalanced(server)).toEqual([]);
  });

  it('refuses what the balance does not cover with 422 insufficient_funds, booking nothing', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '100.00');
    const response = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '17.910001',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'insufficient_funds',
      currency: 'USDC',
      balance: '17.910000',
    });
    expect((await sandbox.get(`/transactions?customerId=${customer.id}`)).json().pagination.total).toBe(1);
    const usdt = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDT',
      sourceAmount: '1',
    });
    expect(usdt.statusCode).toBe(422);
    expect(usdt.json().code).toBe('insufficient_funds');
  });

  it('counts the BRL value against the limits in one pool with on-ramps', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '7500.00'); // 1343.25 USDC; 7500.00 of the 15000.00 daily limit used
    await createOnRamp(sandbox, customer.id, '6000.00'); // 13500.00 used
    // 300 USDC is worth 1650.00 BRL: over what remains (1500.00)
    const over = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '300',
    });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ code: 'limit_exceeded', limit: 'daily', remaining: '1500.00' });
    const fits = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '272.727272', // 1499.99 BRL
    });
    expect(fits.statusCode).toBe(201);
    const limits = (await sandbox.get(`/customers/${customer.id}?includeTransactionLimits=true`)).json();
    expect(limits.transactionLimits.daily).toMatchObject({ used: '14999.99', remaining: '0.01' });
  });

  it('refuses a customer who is not APPROVED with 409 customer_not_approved', async () => {
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    const response = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: '0190b5a4-0000-7000-8000-000000000000',
      sourceCurrency: 'USDC',
      sourceAmount: '1',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('customer_not_approved');
  });

  it("refuses another customer's, a deleted or an unknown account with 404", async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '100.00');
    const other = await customerWithAccount(sandbox);
    const body = { customerId: customer.id, sourceCurrency: 'USDC', sourceAmount: '1' };
    expect((await offRamp(sandbox, { ...body, bankAccountId: other.accountId })).statusCode).toBe(404);
    expect((await sandbox.delete(`/bank-accounts/${accountId}`)).statusCode).toBe(204);
    expect((await offRamp(sandbox, { ...body, bankAccountId: accountId })).statusCode).toBe(404);
    expect((await offRamp(stranger, { ...body, bankAccountId: accountId })).statusCode).toBe(404);
  });

  it('refuses an account whose holder is not APPROVED with 409 bank_account_not_verified, then pays it once screened', async () => {
    const customer = await approvedCustomer(sandbox, individualBody());
    await fund(sandbox, customer.id, '100.00');
    const accountId = await thirdPartyAccount(sandbox, customer.id);
    const body = {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '1',
      purpose: 'BILLS',
    };
    const refused = await offRamp(sandbox, body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('bank_account_not_verified');
    const review = await operatorPost(server, `/operator/bank-accounts/${accountId}/holder-review`, {
      status: 'APPROVED',
    });
    expect(review.statusCode).toBe(200);
    expect(await eventTypes(server, accountId)).toEqual(['bank_account.created', 'bank_account.updated']);
    // PERSONAL_ACCOUNT goes only to the customer's own account
    const personal = await offRamp(sandbox, { ...body, purpose: 'PERSONAL_ACCOUNT' });
    expect(personal.statusCode).toBe(400);
    expect(personal.json().errors).toEqual([
      { pointer: '/body/purpose', message: expect.stringContaining('SELF') },
    ]);
    expect((await offRamp(sandbox, body)).statusCode).toBe(201);
  });

  it('answers 400 with a pointer per problem and books nothing', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    const base = { customerId: customer.id, bankAccountId: accountId };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, sourceCurrency: 'USDC' }, '/body/sourceAmount'],
      [{ ...base, sourceAmount: '1' }, '/body/sourceCurrency'],
      [{ ...base, sourceCurrency: 'BRL', sourceAmount: '1.001' }, '/body/sourceAmount'],
      [{ ...base, sourceCurrency: 'USDC', sourceAmount: '1.0000001' }, '/body/sourceAmount'],
      [{ ...base, sourceCurrency: 'USDC', sourceAmount: '0' }, '/body/sourceAmount'],
      [{ ...base, sourceCurrency: 'EUR', sourceAmount: '1' }, '/body/sourceCurrency'],
      [{ ...base, sourceCurrency: 'USDC', sourceAmount: '1', purpose: 'GIFTS' }, '/body/purpose'],
      [{ ...base, sourceCurrency: 'USDC', sourceAmount: '0.1' }, '/body/sourceAmount'], // worth 0.55 BRL < 1.00
    ];
    for (const [body, pointer] of cases) {
      const response = await offRamp(sandbox, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expect((await sandbox.get(`/transactions?customerId=${customer.id}`)).json().data).toEqual([]);
  });

  it('answers 503 in production until the PIX payout provider is configured', async () => {
    const production = client(server.production, (await server.newTenant('Prod')).productionKey);
    const response = await offRamp(production, {
      customerId: '0190b5a4-0000-7000-8000-000000000000',
      bankAccountId: '0190b5a4-0000-7000-8000-000000000001',
      sourceCurrency: 'USDC',
      sourceAmount: '1',
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('service_unavailable');
  });

  it('lists off-ramps with on-ramps, and answers 404 to another project', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '100.00');
    const created = (
      await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '5',
      })
    ).json();
    const list = (await sandbox.get(`/transactions?customerId=${customer.id}`)).json();
    expect(list.data.map((t: { type: string }) => t.type)).toEqual(['OFF_RAMP', 'ON_RAMP']);
    expect((await stranger.get(`/transactions/${created.id}`)).statusCode).toBe(404);
    expect((await stranger.post(`/sandbox/transactions/${created.id}/return`, {})).statusCode).toBe(404);
  });
});
