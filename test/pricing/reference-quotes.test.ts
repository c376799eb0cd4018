/**
 * Quotes priced from the market reference (`PONTE_RATES_SOURCE=chainlink`): mock feeds on anvil read
 * through the production chain node, the operator's spread per pair, then fees as today; the quote carries
 * its reference. Without a usable reference: 503 rates_unavailable with Retry-After, and no quote kept.
 * The sandbox keeps its deterministic default rates.
 */
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_AGE_S } from '../../src/rails/rates/config.ts';
import { type Anvil, startAnvil } from '../chains/anvil.ts';
import type { Client, TestServer } from '../helpers/server.ts';
import { type PtaxSimulator, portInRange, startMarketServer } from './reference-support.ts';

const { node: anvil, reason } = await startAnvil({ port: await portInRange() });
if (!anvil)
  console.warn(`SKIPPED: the reference quote tests need anvil, which could not start here: ${reason}`);

describe.skipIf(!anvil)('quotes from the market reference', () => {
  const node = anvil as Anvil;
  let server: TestServer;
  let production: Client;
  let sandbox: Client;
  let ptax: PtaxSimulator;
  let brlUsd: Address;

  let market: Awaited<ReturnType<typeof startMarketServer>> | undefined;

  beforeAll(async () => {
    market = await startMarketServer(node, (feeds) => ({
      ...feeds.env,
      PONTE_RATES_SPREAD_BPS: 'BRL/USDC=50',
    }));
    ({ server, production, sandbox, ptax } = market);
    brlUsd = market.feeds.brlUsd;
  });
  afterAll(() => market?.close());

  const quoteCount = async () =>
    (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM exchange_rates'))[0]!.n;

  it('prices from the cross of the feeds less the spread, and says so in the quote', async () => {
    const response = await production.post('/exchange-rates', {
      type: 'FLOATING',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '1000.00',
    });
    expect(response.statusCode, response.body).toBe(201);
    const quote = response.json();
    // mid 0.19 ÷ 1.0001 = 0.1899810018; less 50 bps = 0.1890310967 (rounded down); no fees configured
    expect(quote.reference).toMatchObject({ source: 'CHAINLINK', rate: '0.1899810018' });
    expect(Date.parse(quote.reference.at)).toBeGreaterThan(0);
    expect(quote.baseRate).toBe('0.1890310967');
    expect(quote.targetAmount).toBe('189.031096');
  });

  it('answers 503 rates_unavailable with Retry-After and keeps nothing when the feed is stale', async () => {
    const before = await quoteCount();
    await node.setRound(brlUsd, 19_000_000n, new Date(Date.now() - (DEFAULT_MAX_AGE_S + 60) * 1000));
    await server.ctx.references.production!.refresh();
    const response = await production.post('/exchange-rates', {
      type: 'LOCKED',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '1000.00',
    });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 503, code: 'rates_unavailable' });
    expect(response.headers['retry-after']).toBe('60');
    expect(await quoteCount()).toBe(before);
    // a fresh round brings quotes back
    await node.setRound(brlUsd, 19_000_000n, new Date());
    await server.ctx.references.production!.refresh();
    expect(
      (
        await production.post('/exchange-rates', {
          type: 'FLOATING',
          sourceCurrency: 'BRL',
          targetCurrency: 'USDC',
          sourceAmount: '10.00',
        })
      ).statusCode,
    ).toBe(201);
  });

  it('shows partners the reference per pair with its age, and PTAX beside it', async () => {
    ptax.days.clear();
    const today = new Date(Date.now() - 3 * 3600_000);
    const key = `${String(today.getUTCMonth() + 1).padStart(2, '0')}-${String(today.getUTCDate()).padStart(2, '0')}-${today.getUTCFullYear()}`;
    ptax.days.set(key, { buy: '5.2600', sell: '5.2606', at: '2026-11-27 13:10:24.123' });
    await server.ctx.references.production!.refreshPtax();
    const response = await production.get('/exchange-rates/reference?pair=BRL/USDC');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.data).toEqual([
      {
        pair: 'BRL/USDC',
        source: 'CHAINLINK',
        usable: true,
        rate: '0.1899810018',
        at: expect.any(String),
        ageSeconds: expect.any(Number),
        reason: null,
      },
    ]);
    expect(body.ptax).toEqual({ date: today.toISOString().slice(0, 10), buy: '5.26', sell: '5.2606' });
    // /metrics: the reference's age and its deviation from PTAX per pair, from the readings in hand
    const scraped = (await server.operator.inject({ method: 'GET', url: '/metrics' })).body;
    expect(scraped).toMatch(
      /ponte_rates_reference_age_seconds\{environment="production",pair="BRL\/USDC"\} \d/,
    );
    // 0.19 ÷ 1.0001 against PTAX's 1 ÷ 5.2603: 7 bps (rounded up)
    expect(scraped).toContain(
      'ponte_rates_reference_deviation_bps{environment="production",pair="BRL/USDC"} 7',
    );
    expect(scraped).toContain('ponte_rates_reference_usable{environment="production",pair="USDT/BRL"} 1');
    // without a pair: every pair (the dollar pairs read one feed each); a pair that is not one is a 400
    const every = (await production.get('/exchange-rates/reference')).json().data;
    expect(every.map((row: { pair: string }) => row.pair)).toEqual([
      'BRL/USDC',
      'BRL/USDT',
      'USDC/BRL',
      'USDT/BRL',
      'USD/USDC',
      'USD/USDT',
      'USDC/USD',
      'USDT/USD',
    ]);
    // USD→USDC is 1 ÷ USDC/USD's 1.0001, rounded down
    expect(every.find((row: { pair: string }) => row.pair === 'USD/USDC')).toMatchObject({
      source: 'CHAINLINK',
      usable: true,
      rate: '0.9999000099',
    });
    const bad = await production.get('/exchange-rates/reference?pair=BRL/EUR');
    expect(bad.statusCode).toBe(400);
    // the sandbox shows its default operator rate
    expect((await sandbox.get('/exchange-rates/reference?pair=USDC/BRL')).json()).toMatchObject({
      data: [{ pair: 'USDC/BRL', source: 'OPERATOR', usable: true, rate: '5.5', at: null }],
      ptax: null,
    });
  });

  it('keeps the sandbox on its deterministic default rates', async () => {
    expect(server.ctx.references.sandbox).toBeNull();
    const response = await sandbox.post('/exchange-rates', {
      type: 'FLOATING',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '1000.00',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      baseRate: '0.18',
      reference: { source: 'OPERATOR', rate: '0.18', at: null },
    });
  });
});
