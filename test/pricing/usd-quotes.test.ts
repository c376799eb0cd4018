/**
 * Quotes for the dollar corridor (README "US dollars"): USD into each stablecoin and back, LOCKED and
 * FLOATING, priced by the same rule as the BRL pairs. Fees and limits stay in BRL: a dollar amount counts
 * at its BRL value, the reference through BRL (USD/USDC × USDC/BRL; a stablecoin at its X/BRL mid).
 * A PIX on-ramp or off-ramp refuses a dollar quote: its rail moves BRL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from '../helpers/server.ts';
import { customerWithAccount, fund, offRamp } from '../off-ramp/support.ts';
import {
  approvedIndividual,
  type IsolatedServer,
  onRamp,
  setRate,
  startIsolatedServer,
} from '../transactions/support.ts';

// Sandbox default rates: USD/USDC, USDC/USD 1.00; USDC/BRL 5.50. Fees 0.50% both ways, minimum 0.01 BRL.
let server: IsolatedServer;
let sandbox: Client;
let production: Client;

beforeAll(async () => {
  server = await startIsolatedServer();
  const tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
});
afterAll(async () => {
  await server.close();
});

const quote = (api: Client, body: Record<string, unknown>) => api.post('/exchange-rates', body);

/** The BRL value a quote counts against limits, in cents, as stored with it. */
async function limitAmountBrl(id: string): Promise<bigint> {
  const rows = await server.ctx.db.query<{ limit_amount_brl: bigint }>(
    'SELECT limit_amount_brl FROM exchange_rates WHERE id = $1',
    [id],
  );
  return BigInt(rows[0]!.limit_amount_brl);
}

async function quoteCount(): Promise<number> {
  return (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM exchange_rates'))[0]!.n;
}

describe('quotes in US dollars', () => {
  it('quotes a FLOATING USD→USDC rate from the source amount; it counts against limits at its BRL value', async () => {
    const response = await quote(sandbox, {
      type: 'FLOATING',
      sourceCurrency: 'USD',
      targetCurrency: 'USDC',
      sourceAmount: '1000.00',
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      type: 'FLOATING',
      sourceCurrency: 'USD',
      sourceAmount: '1000.00',
      targetCurrency: 'USDC',
      targetAmount: '995.000000',
      rate: '0.995',
      baseRate: '1',
      fees: { platform: { amount: '5.00', currency: 'USD' }, partner: { amount: '0.00', currency: 'USD' } },
      expiresAt: null,
      reference: { source: 'OPERATOR', rate: '1', at: null },
      createdAt: expect.any(String),
    });
    // 1,000 USD × 1.00 USDC/USD × 5.50 BRL/USDC
    expect(await limitAmountBrl(body.id)).toBe(550_000n);
  });

  it('quotes a LOCKED USDC→USD rate for a target amount: the smallest source that delivers it', async () => {
    const response = await quote(sandbox, {
      type: 'LOCKED',
      sourceCurrency: 'USDC',
      targetCurrency: 'USD',
      targetAmount: '99.50',
      timeLock: '1m',
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      sourceCurrency: 'USDC',
      sourceAmount: '100.000000',
      targetCurrency: 'USD',
      targetAmount: '99.50',
      baseRate: '1',
      fees: { platform: { amount: '0.500000', currency: 'USDC' } },
    });
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(60_000);
    // 100 USDC at 5.50 BRL/USDC
    expect(await limitAmountBrl(body.id)).toBe(55_000n);
  });

  it('quotes USD→USDT and USDT→USD too', async () => {
    for (const [sourceCurrency, targetCurrency, sourceAmount] of [
      ['USD', 'USDT', '20.00'],
      ['USDT', 'USD', '20.000000'],
    ]) {
      const response = await quote(sandbox, {
        type: 'FLOATING',
        sourceCurrency,
        targetCurrency,
        sourceAmount,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ sourceCurrency, targetCurrency, baseRate: '1' });
    }
  });

  it('refuses a pair of two fiat currencies or two stablecoins, and creates nothing', async () => {
    const before = await quoteCount();
    for (const [sourceCurrency, targetCurrency] of [
      ['USD', 'BRL'],
      ['BRL', 'USD'],
      ['USDC', 'USDT'],
    ]) {
      const response = await quote(sandbox, {
        type: 'FLOATING',
        sourceCurrency,
        targetCurrency,
        sourceAmount: '10.00',
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().errors[0].pointer).toBe('/body/targetCurrency');
    }
    expect(await quoteCount()).toBe(before);
  });

  it('refuses a USD amount with more than two decimals', async () => {
    const response = await quote(sandbox, {
      type: 'FLOATING',
      sourceCurrency: 'USD',
      targetCurrency: 'USDC',
      sourceAmount: '10.001',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].pointer).toBe('/body/sourceAmount');
  });

  it('refuses a USD→USDC quote on a PIX on-ramp and a USDC→USD quote on a PIX off-ramp', async () => {
    const customer = await approvedIndividual(sandbox);
    const inQuote = (
      await quote(sandbox, {
        type: 'LOCKED',
        sourceCurrency: 'USD',
        targetCurrency: 'USDC',
        sourceAmount: '100.00',
      })
    ).json();
    const refusedIn = await onRamp(sandbox, customer.id, '100.00', { exchangeRateId: inQuote.id });
    expect(refusedIn.statusCode, refusedIn.body).toBe(400);
    expect(refusedIn.json().errors[0]).toMatchObject({ pointer: '/body/exchangeRateId' });

    const funded = await customerWithAccount(sandbox);
    await fund(sandbox, funded.customer.id, '100.00');
    const outQuote = (
      await quote(sandbox, {
        type: 'LOCKED',
        sourceCurrency: 'USDC',
        targetCurrency: 'USD',
        sourceAmount: '10.000000',
      })
    ).json();
    const refusedOut = await offRamp(sandbox, {
      customerId: funded.customer.id,
      bankAccountId: funded.accountId,
      exchangeRateId: outQuote.id,
      purpose: 'PERSONAL_ACCOUNT',
    });
    expect(refusedOut.statusCode, refusedOut.body).toBe(400);
    expect(refusedOut.json().errors[0]).toMatchObject({ pointer: '/body/exchangeRateId' });
    // neither quote was used up: each is still there to be refused again, not spent
    const used = await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM exchange_rates WHERE id = ANY($1) AND used_at IS NOT NULL',
      [[inQuote.id, outQuote.id]],
    );
    expect(used[0]!.n).toBe(0);
  });

  it("prices USD in production at the operator's rates; without a USDC/BRL rate the dollar has no BRL value (503)", async () => {
    await setRate(server, 'USD/USDC', '0.998');
    const body = { type: 'FLOATING', sourceCurrency: 'USD', targetCurrency: 'USDC', sourceAmount: '1000.00' };
    const before = await quoteCount();
    const unavailable = await quote(production, body);
    expect(unavailable.statusCode, unavailable.body).toBe(503);
    expect(unavailable.json().detail).toContain('USDC/BRL');
    expect(await quoteCount()).toBe(before);

    await setRate(server, 'USDC/BRL', '5.00');
    const priced = await quote(production, body);
    expect(priced.statusCode, priced.body).toBe(201);
    expect(priced.json()).toMatchObject({ baseRate: '0.998', targetAmount: '993.010000' });
    // 1,000 USD × 0.998 USDC/USD × 5.00 BRL/USDC
    expect(await limitAmountBrl(priced.json().id)).toBe(499_000n);
  });
});
