import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = (method: 'GET' | 'POST', payload?: unknown, token = server.operatorToken) =>
  server.operator.inject({
    method,
    url: '/operator/rates',
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: { authorization: `Bearer ${token}` },
  });

describe('operator rates', () => {
  it('sets a rate, answers it exactly, and audits who set it', async () => {
    const response = await call('POST', { pair: 'BRL/USDT', rate: '0.17250' });
    expect(response.statusCode).toBe(201);
    const rate = response.json();
    expect(rate).toMatchObject({ pair: 'BRL/USDT', rate: '0.1725', setBy: 'bootstrap' });
    expect(rate.setAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const audit = await server.ctx.db.query<{ actor: string; action: string; after: unknown }>(
      'SELECT actor, action, after FROM audit_log WHERE resource_id = $1',
      [rate.id],
    );
    expect(audit).toEqual([
      { actor: 'bootstrap', action: 'rate.set', after: { pair: 'BRL/USDT', rate: '0.1725' } },
    ]);
  });

  it('answers the rate in force for each pair: the newest', async () => {
    await call('POST', { pair: 'BRL/USDC', rate: '0.18' });
    const newest = (await call('POST', { pair: 'BRL/USDC', rate: '0.1811' })).json();
    const response = await call('GET');
    expect(response.statusCode).toBe(200);
    const usdc = response.json().data.filter((r: { pair: string }) => r.pair === 'BRL/USDC');
    expect(usdc).toEqual([newest]);
  });

  it('keeps the digits of a rate exactly, up to 10 decimals', async () => {
    const rate = (await call('POST', { pair: 'BRL/USDC', rate: '12345678.0123456789' })).json();
    expect(rate.rate).toBe('12345678.0123456789');
    await call('POST', { pair: 'BRL/USDC', rate: '0.18' });
  });

  it('refuses an unknown pair and a rate that is not a positive decimal of at most 10 decimals', async () => {
    for (const body of [
      { pair: 'BRL/BTC', rate: '1' },
      { pair: 'BRL/USDC', rate: '0' },
      { pair: 'BRL/USDC', rate: '0.00000000000' },
      { pair: 'BRL/USDC', rate: '-0.18' },
      { pair: 'BRL/USDC', rate: '0.12345678901' },
      { pair: 'BRL/USDC', rate: 0.18 },
      { pair: 'BRL/USDC' },
    ]) {
      const response = await call('POST', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().errors[0].pointer).toMatch(/^\/body\/(pair|rate)$/);
    }
  });

  it('keeps a rate in force until the next one where quotes are priced from it: no expiresAt', async () => {
    const rate = (await call('POST', { pair: 'BRL/USDC', rate: '0.18' })).json();
    expect(rate).toMatchObject({ expiresAt: null, forced: false, reason: null });
    const response = await call('POST', {
      pair: 'BRL/USDC',
      rate: '0.18',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[0].pointer).toBe('/body/expiresAt');
  });

  it('needs an operator token', async () => {
    expect((await call('GET', undefined, 'not-a-token')).statusCode).toBe(401);
    expect((await call('POST', { pair: 'BRL/USDC', rate: '1' }, 'not-a-token')).statusCode).toBe(401);
  });
});
