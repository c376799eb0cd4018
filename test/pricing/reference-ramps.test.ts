/**
 * On-ramps and off-ramps priced from the market reference, in a sandbox that quotes from it
 * (`PONTE_SANDBOX_RATES_SOURCE=chainlink`, mock feeds on anvil): created without a quote they are priced by
 * the same rule as a quote (the feeds' mid, the pair's spread, then fees) and answer 503 rates_unavailable
 * without a usable reference; every receipt shows the reference it was priced from (GET, list, events).
 * An operator override past its expiry is in force nowhere: not for prices, the BRL value that counts
 * against limits, the partners' reference, or readiness.
 */
import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html } from '../../src/lib/html.ts';
import { DEFAULT_MAX_AGE_S } from '../../src/rails/rates/config.ts';
import { transactionDetail } from '../../src/web/pages/shared/transaction-detail.ts';
import { type Anvil, startAnvil } from '../chains/anvil.ts';
import type { Client, TestServer } from '../helpers/server.ts';
import { customerWithAccount, fund, offRamp } from '../off-ramp/support.ts';
import { approvedIndividual, createOnRamp, onRamp } from '../transactions/support.ts';
import { portInRange, startMarketServer } from './reference-support.ts';

const { node: anvil, reason } = await startAnvil({ port: await portInRange() });
if (!anvil)
  console.warn(`SKIPPED: the reference ramp tests need anvil, which could not start here: ${reason}`);

/** BRL/USDC: 0.19 ÷ 1.0001, and less its 50 bps spread; USDC/BRL: 1.0001 ÷ 0.19, no spread. */
const BRL_USDC_MID = '0.1899810018';
const BRL_USDC_RATE = '0.1890310967';
const USDC_BRL_MID = '5.2636842105';

describe.skipIf(!anvil)('ramps priced from the market reference', () => {
  const node = anvil as Anvil;
  let server: TestServer;
  let sandbox: Client;
  let production: Client;
  let brlUsd: Address;

  let market: Awaited<ReturnType<typeof startMarketServer>> | undefined;

  beforeAll(async () => {
    market = await startMarketServer(node, (feeds) => ({
      ...feeds.env,
      PONTE_SANDBOX_RATES_SOURCE: 'chainlink',
      PONTE_SANDBOX_RATES_FEEDS: feeds.env.PONTE_RATES_FEEDS,
      PONTE_SANDBOX_RATES_PTAX_URL: feeds.env.PONTE_RATES_PTAX_URL,
      PONTE_SANDBOX_RATES_SPREAD_BPS: 'BRL/USDC=50',
    }));
    ({ server, production, sandbox } = market);
    brlUsd = market.feeds.brlUsd;
  });
  afterAll(() => market?.close());

  const reference = () => server.ctx.references.sandbox!;
  const transactionCount = async () =>
    (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions'))[0]!.n;
  const deposit = async (id: string) => {
    const response = await sandbox.post(`/sandbox/transactions/${id}/deposit`, {});
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const staleBrlUsd = async () => {
    await node.setRound(brlUsd, 19_000_000n, new Date(Date.now() - (DEFAULT_MAX_AGE_S + 60) * 1000));
    await reference().refresh();
  };
  const freshBrlUsd = async () => {
    await node.setRound(brlUsd, 19_000_000n, new Date());
    await reference().refresh();
  };
  /** target = net × rate, rounded down to the target's 6 decimals (BRL 2 decimals in, rate at scale 10). */
  const converted = (net: string, rate: string) => {
    const cents = BigInt(net.replace('.', ''));
    const [whole, fraction = ''] = rate.split('.');
    const scaled = BigInt(whole + fraction.padEnd(10, '0'));
    return ((cents * scaled) / 10n ** 6n)
      .toString()
      .padStart(7, '0')
      .replace(/(\d{6})$/, '.$1');
  };

  it('prices an on-ramp without a quote from the feeds, less the spread, then fees; its receipt shows the reference', async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '1000.00');
    const done = await deposit(created.id);
    expect(done.status).toBe('SUCCESS');
    expect(done.receipt.rate).toBe(BRL_USDC_RATE);
    expect(done.receipt.reference).toEqual({
      source: 'CHAINLINK',
      rate: BRL_USDC_MID,
      at: expect.any(String),
    });
    expect(Date.parse(done.receipt.reference.at)).toBeGreaterThan(0);
    // the fees come off first, the rest converts at the spread rate
    expect(done.receipt.targetAmount).toBe(converted(done.receipt.netAmount, BRL_USDC_RATE));
    // the same on every read: GET, the list, and the event that announced the step
    expect((await sandbox.get(`/transactions/${created.id}`)).json().receipt.reference).toEqual(
      done.receipt.reference,
    );
    const listed = (await sandbox.get(`/transactions?customerId=${customer.id}`)).json().data;
    expect(listed.find((t: { id: string }) => t.id === created.id).receipt.reference).toEqual(
      done.receipt.reference,
    );
    const events = await server.ctx.db.query<{ data: { status: string; receipt: { reference: unknown } } }>(
      `SELECT data FROM events WHERE resource_id = $1 AND type = 'transaction.updated' ORDER BY seq`,
      [created.id],
    );
    expect(events.at(-1)!.data.status).toBe('SUCCESS');
    expect(events.at(-1)!.data.receipt.reference).toEqual(done.receipt.reference);
  });

  it('prices an off-ramp without a quote from the feeds and keeps the reference on its receipt', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '500.00');
    const response = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '20.000000',
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();
    expect(created.receipt.rate).toBe(USDC_BRL_MID);
    expect(created.receipt.reference).toEqual({
      source: 'CHAINLINK',
      rate: USDC_BRL_MID,
      at: expect.any(String),
    });
    // its BRL value for the limits is the USDC at the reference rate (20 × 5.2636842105, rounded down)
    const [row] = await server.ctx.db.query<{ limit_amount_brl: bigint }>(
      'SELECT limit_amount_brl FROM transactions WHERE id = $1',
      [created.id],
    );
    expect(row!.limit_amount_brl).toBe(10_527n);
    // the dashboard's and the console's page show the reference its receipt keeps
    const page = await transactionDetail(created, { customer: html``, partnerFeeLabel: 'Partner fee' });
    expect(page.safe).toContain(`<dd class="reference">CHAINLINK <code>${USDC_BRL_MID}</code>`);
  });

  it("says on the operator listener's /readyz whether each pair's market reference is usable, and why not, and stays ready", async () => {
    const readyz = async () => {
      const response = await server.operator.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().marketReference;
    };
    expect((await readyz()).sandbox['BRL/USDC']).toEqual({ usable: true });
    await staleBrlUsd();
    try {
      const stale = await readyz();
      expect(stale.sandbox['BRL/USDC']).toEqual({
        usable: false,
        reason: expect.stringMatching(/^BRL\/USD: updated \d+ s ago, over \d+ s$/),
      });
      // the partners' listeners say nothing of it
      const partner = await server.sandbox.inject({ method: 'GET', url: '/readyz' });
      expect(partner.json().marketReference).toBeUndefined();
    } finally {
      await freshBrlUsd();
    }
    expect((await readyz()).sandbox['BRL/USDC']).toEqual({ usable: true });
  });

  it('answers 503 rates_unavailable with Retry-After and creates nothing when a ramp without a quote has no usable reference', async () => {
    const customer = await approvedIndividual(sandbox);
    const { customer: payer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, payer.id, '200.00');
    await staleBrlUsd();
    try {
      const before = await transactionCount();
      const on = await onRamp(sandbox, customer.id, '100.00');
      expect(on.statusCode, on.body).toBe(503);
      expect(on.headers['content-type']).toContain('application/problem+json');
      expect(on.json()).toMatchObject({ status: 503, code: 'rates_unavailable' });
      expect(on.headers['retry-after']).toBe('60');
      const off = await offRamp(sandbox, {
        customerId: payer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '5.000000',
      });
      expect(off.statusCode, off.body).toBe(503);
      expect(off.json()).toMatchObject({ code: 'rates_unavailable' });
      expect(off.headers['retry-after']).toBe('60');
      expect(await transactionCount()).toBe(before);
      // a BRL payout converts nothing and needs no reference
      const brl = await offRamp(sandbox, {
        customerId: payer.id,
        bankAccountId: accountId,
        sourceCurrency: 'BRL',
        sourceAmount: '5.00',
      });
      expect(brl.statusCode).not.toBe(503);
    } finally {
      await freshBrlUsd();
    }
  });

  it('honours a LOCKED quote given before the reference became unusable, and its receipt shows the quote reference', async () => {
    const customer = await approvedIndividual(sandbox);
    const quote = (
      await sandbox.post('/exchange-rates', {
        type: 'LOCKED',
        sourceCurrency: 'BRL',
        targetCurrency: 'USDC',
        sourceAmount: '300.00',
        timeLock: '5m',
      })
    ).json();
    expect(quote.reference).toMatchObject({ source: 'CHAINLINK', rate: BRL_USDC_MID });
    await staleBrlUsd();
    try {
      const created = await createOnRamp(sandbox, customer.id, '300.00', { exchangeRateId: quote.id });
      const done = await deposit(created.id);
      expect(done.status).toBe('SUCCESS');
      expect(done.receipt.rate).toBe(quote.baseRate);
      expect(done.receipt.targetAmount).toBe(quote.targetAmount);
      expect(done.receipt.reference).toEqual(quote.reference);
    } finally {
      await freshBrlUsd();
    }
  });

  it('fails an on-ramp whose reference became unusable before its deposit traded, the BRL held for refund', async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '100.00');
    await staleBrlUsd();
    try {
      const done = await deposit(created.id);
      expect(done.status).toBe('FAILED');
      expect(done.failureCode).toBe('rate_unavailable');
      expect(done.failureReason).toMatch(
        /No usable BRL\/USDC market reference: BRL\/USD: updated .* held for refund/,
      );
      expect(done.receipt).toBeNull();
    } finally {
      await freshBrlUsd();
    }
  });

  it('ignores an expired override everywhere: prices, the BRL value for limits, the reference shown, readiness', async () => {
    const now = Date.now();
    // an override of USDC/BRL at 9 that stood from 20 minutes ago until 5 minutes ago
    await server.ctx.db.query(
      `INSERT INTO conversion_rates (id, pair, rate, set_by, created_at, expires_at, forced, reason)
       VALUES ($1, 'USDC/BRL', 90000000000, 'operator:test', $2, $3, true, 'feed lagging')`,
      [randomUUID(), new Date(now - 20 * 60_000), new Date(now - 5 * 60_000)],
    );
    const quote = (
      await production.post('/exchange-rates', {
        type: 'FLOATING',
        sourceCurrency: 'USDC',
        targetCurrency: 'BRL',
        sourceAmount: '10.000000',
      })
    ).json();
    expect(quote.reference).toMatchObject({ source: 'CHAINLINK', rate: USDC_BRL_MID });
    const shown = (await sandbox.get('/exchange-rates/reference?pair=USDC/BRL')).json().data[0];
    expect(shown).toMatchObject({ source: 'CHAINLINK', rate: USDC_BRL_MID });
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '200.00');
    const created = (
      await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '20.000000',
      })
    ).json();
    expect(created.receipt).toMatchObject({ rate: USDC_BRL_MID, reference: { source: 'CHAINLINK' } });
    const [row] = await server.ctx.db.query<{ limit_amount_brl: bigint }>(
      'SELECT limit_amount_brl FROM transactions WHERE id = $1',
      [created.id],
    );
    expect(row!.limit_amount_brl).toBe(10_527n); // at the reference, not 180.00 at the expired 9
    const readyz = (await server.operator.inject({ method: 'GET', url: '/readyz' })).json();
    expect(readyz.rates['USDC/BRL']).toBe('missing');
  });
});
