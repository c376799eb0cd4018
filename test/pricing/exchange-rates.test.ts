import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from '../helpers/server.ts';
import { customerWithAccount, fund, offRamp, operatorPost, settled } from '../off-ramp/support.ts';
import { type IsolatedServer, setRate, startIsolatedServer } from '../transactions/support.ts';

// Sandbox default rates (BRL/USDC 0.18, USDC/BRL 5.50), 0.50% fees both ways, minimum fee 0.01 BRL.
let offset = 0;
const clock = () => new Date(Date.now() + offset);
let server: IsolatedServer;
let sandbox: Client;
let production: Client;

beforeAll(async () => {
  server = await startIsolatedServer({ clock });
  const tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
});
afterAll(async () => {
  await server.close();
});

const quote = (api: Client, body: Record<string, unknown>) => api.post('/exchange-rates', body);

describe('POST /exchange-rates', () => {
  it('quotes a FLOATING BRL→USDC rate from the source amount, fees itemised', async () => {
    const response = await quote(sandbox, {
      type: 'FLOATING',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '1000.00',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      type: 'FLOATING',
      sourceCurrency: 'BRL',
      sourceAmount: '1000.00',
      targetCurrency: 'USDC',
      targetAmount: '179.100000',
      rate: '0.1791',
      baseRate: '0.18',
      fees: { platform: { amount: '5.00', currency: 'BRL' }, partner: { amount: '0.00', currency: 'BRL' } },
      expiresAt: null,
      // the sandbox's default rate: an operator rate with no time of its own
      reference: { source: 'OPERATOR', rate: '0.18', at: null },
      createdAt: expect.any(String),
    });
  });

  it('quotes a LOCKED USDC→BRL rate for a target amount: the smallest source that delivers it', async () => {
    const response = await quote(sandbox, {
      type: 'LOCKED',
      sourceCurrency: 'USDC',
      targetCurrency: 'BRL',
      targetAmount: '547.25',
      timeLock: '1m',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      sourceAmount: '100.000000',
      targetAmount: '547.25',
      baseRate: '5.5',
      rate: '5.4725',
      fees: { platform: { amount: '0.500000', currency: 'USDC' } },
    });
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(60_000);
  });

  it('answers 400 with a pointer for an unknown pair, two amounts or none, a misplaced timeLock, too many decimals', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { type: 'FLOATING', sourceCurrency: 'USDC', targetCurrency: 'USDT', sourceAmount: '1' },
        '/body/targetCurrency',
      ],
      [
        { type: 'FLOATING', sourceCurrency: 'BRL', targetCurrency: 'BRL', sourceAmount: '1' },
        '/body/targetCurrency',
      ],
      [{ type: 'FLOATING', sourceCurrency: 'BRL', targetCurrency: 'USDC' }, '/body/sourceAmount'],
      [
        {
          type: 'FLOATING',
          sourceCurrency: 'BRL',
          targetCurrency: 'USDC',
          sourceAmount: '10',
          targetAmount: '1',
        },
        '/body/sourceAmount',
      ],
      [
        {
          type: 'FLOATING',
          sourceCurrency: 'BRL',
          targetCurrency: 'USDC',
          sourceAmount: '10',
          timeLock: '1m',
        },
        '/body/timeLock',
      ],
      [
        { type: 'LOCKED', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.001' },
        '/body/sourceAmount',
      ],
      [
        { type: 'LOCKED', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10', timeLock: '2m' },
        '/body/timeLock',
      ],
      [
        { type: 'LOCKED', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '0.50' },
        '/body/sourceAmount',
      ],
    ];
    for (const [body, pointer] of cases) {
      const response = await quote(sandbox, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
  });

  it('answers 503 in production while the operator has set no rate for the pair', async () => {
    const response = await quote(production, {
      type: 'FLOATING',
      sourceCurrency: 'USDT',
      targetCurrency: 'BRL',
      sourceAmount: '10',
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('service_unavailable');
  });
});

describe('a LOCKED rate settles its transaction at exactly its figures, once, until it expires', () => {
  it('an on-ramp naming it converts at the quote even after the market moves; a second use is 409 exchange_rate_used', async () => {
    const { customer } = await customerWithAccount(sandbox);
    const locked = (
      await quote(sandbox, {
        type: 'LOCKED',
        sourceCurrency: 'BRL',
        targetCurrency: 'USDT',
        targetAmount: '50',
      })
    ).json();
    const created = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      exchangeRateId: locked.id,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().request).toEqual({
      currency: 'BRL',
      amount: locked.sourceAmount,
      targetCurrency: 'USDT',
      exchangeRateId: locked.id,
      blockchain: 'ETHEREUM',
    });
    await setRate(server, 'BRL/USDT', '0.1');
    const done = (await sandbox.post(`/sandbox/transactions/${created.json().id}/deposit`, {})).json();
    expect(done.status).toBe('SUCCESS');
    expect(done.receipt).toMatchObject({
      sourceAmount: locked.sourceAmount,
      fees: { platform: locked.fees.platform, partner: locked.fees.partner },
      rate: locked.baseRate,
      targetAmount: '50.000000',
    });
    const again = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      exchangeRateId: locked.id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('exchange_rate_used');
  });

  it('an off-ramp naming it pays exactly the quote; the amount sent must match it', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '1000.00', 'USDC');
    const locked = (
      await quote(sandbox, {
        type: 'LOCKED',
        sourceCurrency: 'USDC',
        targetCurrency: 'BRL',
        sourceAmount: '30',
      })
    ).json();
    const base = { customerId: customer.id, bankAccountId: accountId, exchangeRateId: locked.id };
    const mismatch = await offRamp(sandbox, { ...base, sourceCurrency: 'USDC', sourceAmount: '31' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors[0].pointer).toBe('/body/sourceAmount');
    const created = await offRamp(sandbox, { ...base, sourceAmount: '30.00' });
    expect(created.statusCode).toBe(201);
    expect(created.json().receipt).toMatchObject({
      sourceAmount: locked.sourceAmount,
      targetAmount: locked.targetAmount,
      rate: locked.baseRate,
    });
    expect((await settled(sandbox, created.json().id)).status).toBe('SUCCESS');
  });

  it('refuses an expired one with 409 exchange_rate_expired and a FLOATING one with 400', async () => {
    const { customer } = await customerWithAccount(sandbox);
    const locked = (
      await quote(sandbox, {
        type: 'LOCKED',
        sourceCurrency: 'BRL',
        targetCurrency: 'USDC',
        sourceAmount: '100',
      })
    ).json();
    offset += 30_000;
    const expired = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      exchangeRateId: locked.id,
    });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().code).toBe('exchange_rate_expired');
    const floating = (
      await quote(sandbox, {
        type: 'FLOATING',
        sourceCurrency: 'BRL',
        targetCurrency: 'USDC',
        sourceAmount: '100',
      })
    ).json();
    const refused = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      exchangeRateId: floating.id,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].pointer).toBe('/body/exchangeRateId');
    const offRampQuote = (
      await quote(sandbox, {
        type: 'LOCKED',
        sourceCurrency: 'USDC',
        targetCurrency: 'BRL',
        sourceAmount: '1',
      })
    ).json();
    const wrongWay = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      exchangeRateId: offRampQuote.id,
    });
    expect(wrongWay.statusCode).toBe(400);
    const unknown = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      exchangeRateId: '0190b5a4-0000-7000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('partner fees', () => {
  it("are set by the operator per type, shown separately on quotes and receipts, and booked to the partner's revenue", async () => {
    const tenant = await server.newTenant('Fee partner');
    const api = client(server.sandbox, tenant.sandboxKey);
    const url = `/operator/projects/${tenant.projectId}/partner-fees`;
    const set = await operatorPost(server, url, { transactionType: 'OFF_RAMP', bps: 100, flat: '0.55' });
    expect(set.statusCode).toBe(201);
    expect(set.json()).toMatchObject({ transactionType: 'OFF_RAMP', bps: 100, flat: '0.55' });
    const listed = await server.operator.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });
    expect(listed.json().data).toEqual([
      { transactionType: 'ON_RAMP', bps: 0, flat: '0.00', updatedAt: null },
      expect.objectContaining({ transactionType: 'OFF_RAMP', bps: 100, flat: '0.55' }),
    ]);
    expect(
      (await operatorPost(server, url, { transactionType: 'OFF_RAMP', bps: 5001, flat: '0' })).statusCode,
    ).toBe(400);

    const { customer, accountId } = await customerWithAccount(api);
    await fund(api, customer.id, '1000.00'); // on-ramps carry no partner fee: 179.100000 USDC
    const created = (
      await offRamp(api, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '100',
      })
    ).json();
    // partner: 1% of 100 = 1.000000 plus 0.55 BRL at 5.50 = 0.100000 USDC
    expect(created.receipt).toMatchObject({
      fee: '1.600000',
      fees: {
        platform: { amount: '0.500000', currency: 'USDC' },
        partner: { amount: '1.100000', currency: 'USDC' },
      },
      netAmount: '98.400000',
      targetAmount: '541.20',
    });
    expect((await settled(api, created.id)).status).toBe('SUCCESS');
    const revenue = await server.ctx.db.query<{ account: string; total: string }>(
      `SELECT e.account, (-sum(e.amount))::text AS total FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
        WHERE j.transaction_id = $1 AND e.account IN ('FEE_REVENUE', 'PARTNER_FEE_REVENUE')
        GROUP BY e.account ORDER BY e.account`,
      [created.id],
    );
    expect(revenue).toEqual([
      { account: 'FEE_REVENUE', total: '500000' },
      { account: 'PARTNER_FEE_REVENUE', total: '1100000' },
    ]);
  });
});
