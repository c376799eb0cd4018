/**
 * PTAX, the Banco Central's official USD/BRL bulletin: read from a simulator answering in the OData
 * service's own JSON shape (no network), figures taken as exact decimals, weekends and holidays walked
 * back to the last business day, and each bulletin kept with its date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestPtax, savePtax } from '../../src/modules/pricing/ptax-repo.ts';
import { PtaxUnavailable, parsePtaxAnswer, ptaxClient } from '../../src/rails/rates/ptax.ts';
import { referenceRates } from '../../src/rails/rates/reference.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { type PtaxSimulator, ptaxAnswer, startPtaxSimulator } from './reference-support.ts';

/** The answer the service's documentation shows for one business day (CotacaoDolarDia). */
const RECORDED = ptaxAnswer([{ buy: '5.1234', sell: '5.124', at: '2026-11-27 13:10:24.123' }]);

describe('PTAX bulletins', () => {
  let simulator: PtaxSimulator;
  let server: TestServer;

  beforeAll(async () => {
    simulator = await startPtaxSimulator();
    server = await startTestServer({ ownDatabase: true });
  });
  afterAll(async () => {
    await simulator.close();
    await server.close();
  });

  it('reads the figures of the answer as exact decimals at the rate scale', () => {
    expect(parsePtaxAnswer(RECORDED, '2026-11-27', 10)).toEqual({
      date: '2026-11-27',
      buy: 51_234_000_000n,
      sell: 51_240_000_000n,
      publishedAt: '2026-11-27 13:10:24.123',
    });
    // more digits than a double keeps exactly, truncated at the scale rather than rounded through a float
    const precise = ptaxAnswer([{ buy: '5.123456789012345678', sell: '5.2', at: '2026-11-27 13:10:24.123' }]);
    expect(parsePtaxAnswer(precise, '2026-11-27', 10)?.buy).toBe(51_234_567_890n);
    expect(parsePtaxAnswer(ptaxAnswer([]), '2026-11-28', 10)).toBeNull();
    expect(() => parsePtaxAnswer('<html>', '2026-11-28', 10)).toThrow(PtaxUnavailable);
    expect(() => parsePtaxAnswer('{"value":[{"dataHoraCotacao":"x"}]}', '2026-11-28', 10)).toThrow(
      'lacks cotacaoCompra',
    );
  });

  it('walks back from a weekend to the last business day', async () => {
    simulator.days.set('11-27-2026', { buy: '5.1234', sell: '5.1240', at: '2026-11-27 13:10:24.123' });
    simulator.requests.length = 0;
    // Sunday 29 November, 10:00 UTC: Sunday and Saturday answer an empty value; Friday has the bulletin
    const bulletin = await ptaxClient(simulator.url).latest(new Date('2026-11-29T10:00:00Z'), 10);
    expect(bulletin).toMatchObject({ date: '2026-11-27', buy: 51_234_000_000n, sell: 51_240_000_000n });
    expect(simulator.requests.map((r) => /'([\d-]+)'/.exec(r)?.[1])).toEqual([
      '11-29-2026',
      '11-28-2026',
      '11-27-2026',
    ]);
    // 01:00 UTC on Saturday is still Friday in Brasília: Friday's bulletin is asked for first
    simulator.requests.length = 0;
    await ptaxClient(simulator.url).latest(new Date('2026-11-28T01:00:00Z'), 10);
    expect(simulator.requests).toHaveLength(1);
  });

  it('says the service is unavailable when it errors', async () => {
    simulator.status = 503;
    try {
      await expect(ptaxClient(simulator.url).latest(new Date('2026-11-27T18:00:00Z'), 10)).rejects.toThrow(
        'the PTAX service answered 503',
      );
    } finally {
      simulator.status = 200;
    }
  });

  it('keeps each fetched bulletin with its date; the newest is the anchor', async () => {
    simulator.days.set('11-26-2026', { buy: '5.3001', sell: '5.3007', at: '2026-11-26 13:08:11.512' });
    simulator.days.set('11-27-2026', { buy: '5.1234', sell: '5.1240', at: '2026-11-27 13:10:24.123' });
    let clock = new Date('2026-11-26T20:00:00Z');
    const rates = referenceRates({
      config: {
        feeds: {},
        maxAgeS: { 'BRL/USD': 1, 'USDC/USD': 1, 'USDT/USD': 1 },
        maxDeviationBps: 300,
        maxJumpBps: 1000,
        refreshS: 60,
      },
      reader: { read: () => Promise.reject(new Error('no feeds in this test')) },
      ptax: ptaxClient(simulator.url),
      now: () => clock,
      onPtax: (bulletin) => savePtax(server.ctx.db, bulletin, clock),
    });
    await rates.refreshPtax();
    expect(await latestPtax(server.ctx.db)).toEqual({
      date: '2026-11-26',
      buy: 53_001_000_000n,
      sell: 53_007_000_000n,
      publishedAt: '2026-11-26 13:08:11.512',
    });
    clock = new Date('2026-11-29T10:00:00Z');
    await rates.refreshPtax();
    expect((await latestPtax(server.ctx.db))?.date).toBe('2026-11-27');
    expect(rates.snapshot().ptax?.date).toBe('2026-11-27');
    const kept = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ptax_bulletins');
    expect(kept[0]?.n).toBe(2);
  });
});
