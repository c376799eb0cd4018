/**
 * Operator overrides of the market reference (`PONTE_RATES_SOURCE=chainlink`): a rate set with
 * `POST /operator/rates` replaces the pair's reference mid until it expires, within a band around the
 * reference (PONTE_RATES_MAX_OVERRIDE_BPS, 200 here) unless forced with a reason; out of band without
 * force is 422 rate_out_of_band naming the band, and nothing is set. Every override is audited.
 */
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_AGE_S } from '../../src/rails/rates/config.ts';
import { type Anvil, startAnvil } from '../chains/anvil.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { marketFeeds, type PtaxSimulator, portInRange, startPtaxSimulator } from './reference-support.ts';

const { node: anvil, reason } = await startAnvil({ port: await portInRange() });
if (!anvil) console.warn(`SKIPPED: the override tests need anvil, which could not start here: ${reason}`);

describe.skipIf(!anvil)('operator overrides of the market reference', () => {
  const node = anvil as Anvil;
  let server: TestServer;
  let production: Client;
  let operator: Client;
  let ptax: PtaxSimulator;
  let brlUsd: Address;
  // the server's clock, moved by the expiry tests
  let now = Date.now();

  beforeAll(async () => {
    ptax = await startPtaxSimulator();
    const feeds = await marketFeeds(node, ptax);
    brlUsd = feeds.brlUsd;
    server = await startTestServer({ ownDatabase: true, clock: () => new Date(now), env: feeds.env });
    const tenant = await server.newTenant();
    production = client(server.production, tenant.productionKey);
    operator = client(server.operator, server.operatorToken);
  });
  afterAll(async () => {
    await server?.close();
    await ptax?.close();
    node.stop();
  });

  const quote = async () => {
    const response = await production.post('/exchange-rates', {
      type: 'FLOATING',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '1000.00',
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const rateCount = async () =>
    (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM conversion_rates'))[0]!.n;
  const auditCount = async () =>
    (
      await server.ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM audit_log WHERE resource_type = 'conversion_rate'",
      )
    )[0]!.n;
  const auditOf = async (id: string) =>
    server.ctx.db.query<{ actor: string; action: string; after: Record<string, unknown> }>(
      'SELECT actor, action, after FROM audit_log WHERE resource_id = $1',
      [id],
    );

  it('takes an override within the band, and the next quote is priced from it (source OPERATOR)', async () => {
    // the reference mid is 0.19 ÷ 1.0001 = 0.1899810018
    expect((await quote()).reference).toMatchObject({ source: 'CHAINLINK', rate: '0.1899810018' });
    const response = await operator.post('/operator/rates', { pair: 'BRL/USDC', rate: '0.1900' });
    expect(response.statusCode, response.body).toBe(201);
    const override = response.json();
    expect(override).toMatchObject({ pair: 'BRL/USDC', rate: '0.19', forced: false, reason: null });
    // no expiresAt given: 15 minutes
    expect(Date.parse(override.expiresAt) - Date.parse(override.setAt)).toBe(15 * 60_000);
    const priced = await quote();
    expect(priced.reference).toEqual({ source: 'OPERATOR', rate: '0.19', at: override.setAt });
    expect(priced.baseRate).toBe('0.19');
    expect(priced.targetAmount).toBe('190.000000');
    // partners see the override as the pair's reference while it stands
    const shown = (await production.get('/exchange-rates/reference?pair=BRL/USDC')).json().data;
    expect(shown).toEqual([
      {
        pair: 'BRL/USDC',
        source: 'OPERATOR',
        usable: true,
        rate: '0.19',
        at: override.setAt,
        ageSeconds: 0,
        reason: null,
      },
    ]);
    const [audit] = await auditOf(override.id);
    expect(audit).toMatchObject({ actor: 'bootstrap', action: 'rate.override' });
    expect(audit!.after).toMatchObject({ rate: '0.19', forced: false, expiresAt: override.expiresAt });
  });

  it('refuses an override outside the band with 422 rate_out_of_band naming the band, and sets nothing', async () => {
    const [rates, audits] = [await rateCount(), await auditCount()];
    const response = await operator.post('/operator/rates', { pair: 'BRL/USDC', rate: '0.2' });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.headers['content-type']).toContain('application/problem+json');
    const problem = response.json();
    expect(problem).toMatchObject({ status: 422, code: 'rate_out_of_band' });
    // 200 bps around 0.1899810018: 0.1861813818 (rounded up) to 0.1937806218 (rounded down)
    expect(problem.detail).toContain('0.1861813818–0.1937806218');
    expect(problem.band).toEqual([
      {
        environment: 'production',
        maxBps: 200,
        reference: '0.1899810018',
        low: '0.1861813818',
        high: '0.1937806218',
      },
    ]);
    // just past the band's low end is refused too; its ends are in it
    expect(
      (await operator.post('/operator/rates', { pair: 'BRL/USDC', rate: '0.1861813817' })).json().code,
    ).toBe('rate_out_of_band');
    expect([await rateCount(), await auditCount()]).toEqual([rates, audits]);
    // the override in force is still the one set before
    expect((await quote()).reference).toMatchObject({ source: 'OPERATOR', rate: '0.19' });
    const edge = await operator.post('/operator/rates', { pair: 'BRL/USDC', rate: '0.1937806218' });
    expect(edge.statusCode, edge.body).toBe(201);
  });

  it('refuses force without a reason (400), and sets nothing', async () => {
    const [rates, audits] = [await rateCount(), await auditCount()];
    for (const body of [
      { pair: 'BRL/USDC', rate: '0.2', force: true },
      { pair: 'BRL/USDC', rate: '0.2', force: true, reason: '   ' },
      { pair: 'BRL/USDC', rate: '0.2', force: true, reason: '' },
    ]) {
      const response = await operator.post('/operator/rates', body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe('invalid_request');
      expect(JSON.stringify(response.json().errors)).toContain('/body/reason');
    }
    expect([await rateCount(), await auditCount()]).toEqual([rates, audits]);
  });

  it('takes a forced override with its reason, uses it, and audits who and why', async () => {
    const response = await operator.post('/operator/rates', {
      pair: 'BRL/USDC',
      rate: '0.2',
      force: true,
      reason: 'Feed lagging the market after the central bank announcement',
    });
    expect(response.statusCode, response.body).toBe(201);
    const override = response.json();
    expect(override).toMatchObject({
      rate: '0.2',
      forced: true,
      reason: 'Feed lagging the market after the central bank announcement',
    });
    expect((await quote()).reference).toMatchObject({ source: 'OPERATOR', rate: '0.2' });
    expect(await auditOf(override.id)).toEqual([
      {
        actor: 'bootstrap',
        action: 'rate.override',
        after: {
          pair: 'BRL/USDC',
          rate: '0.2',
          expiresAt: override.expiresAt,
          forced: true,
          reason: 'Feed lagging the market after the central bank announcement',
          references: [{ environment: 'production', reference: '0.1899810018', maxBps: 200, inBand: false }],
        },
      },
    ]);
    const listed = (await operator.get('/operator/rates')).json().data;
    expect(listed.find((r: { pair: string }) => r.pair === 'BRL/USDC')).toEqual(override);
  });

  it('stops using an override once it expires: the market reference prices again', async () => {
    const expiresAt = new Date(now + 60_000).toISOString();
    const response = await operator.post('/operator/rates', { pair: 'BRL/USDC', rate: '0.1888', expiresAt });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().expiresAt).toBe(expiresAt);
    now += 59_000;
    expect((await quote()).reference).toMatchObject({ source: 'OPERATOR', rate: '0.1888' });
    now += 1_000;
    const after = await quote();
    expect(after.reference).toMatchObject({ source: 'CHAINLINK', rate: '0.1899810018' });
    expect(after.baseRate).toBe('0.1899810018');
    const shown = (await production.get('/exchange-rates/reference?pair=BRL/USDC')).json().data;
    expect(shown[0]).toMatchObject({ source: 'CHAINLINK', rate: '0.1899810018' });
  });

  it('expires an override given no expiresAt after 15 minutes', async () => {
    expect((await operator.post('/operator/rates', { pair: 'BRL/USDC', rate: '0.1888' })).statusCode).toBe(
      201,
    );
    now += 15 * 60_000 - 1;
    expect((await quote()).reference.source).toBe('OPERATOR');
    now += 1;
    expect((await quote()).reference.source).toBe('CHAINLINK');
  });

  it('refuses an expiresAt that is not in the future', async () => {
    const response = await operator.post('/operator/rates', {
      pair: 'BRL/USDC',
      rate: '0.19',
      expiresAt: new Date(now).toISOString(),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(JSON.stringify(response.json().errors)).toContain('/body/expiresAt');
  });

  it('without a usable reference only a forced override is set, and quotes are priced from it', async () => {
    // stale whether read against the real clock or the moved one
    await node.setRound(brlUsd, 19_000_000n, new Date(Date.now() - (DEFAULT_MAX_AGE_S + 3600) * 1000));
    await server.ctx.references.production!.refresh();
    const quoteBody = {
      type: 'FLOATING',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '10.00',
    };
    expect((await production.post('/exchange-rates', quoteBody)).statusCode).toBe(503);
    const refused = await operator.post('/operator/rates', { pair: 'BRL/USDC', rate: '0.19' });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'rate_out_of_band',
      band: [{ environment: 'production', maxBps: 200, reference: null, low: null, high: null }],
    });
    expect(refused.json().detail).toContain('no usable production reference');
    const forced = await operator.post('/operator/rates', {
      pair: 'BRL/USDC',
      rate: '0.19',
      force: true,
      reason: 'BRL/USD feed stale',
    });
    expect(forced.statusCode, forced.body).toBe(201);
    expect((await quote()).reference).toMatchObject({ source: 'OPERATOR', rate: '0.19' });
  });
});
