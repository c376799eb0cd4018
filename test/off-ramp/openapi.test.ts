import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(() => server.close());

describe('the OpenAPI document for money out', () => {
  it('documents every new route with its body, its answers, a tag and bearer security', async () => {
    const doc = (await server.sandbox.inject({ method: 'GET', url: '/openapi.json' })).json();
    const expected: [string, string, string[]][] = [
      ['/exchange-rates', 'post', ['201', '400', '401', '422', '429', '503']],
      ['/transactions/off-ramp', 'post', ['201', '400', '401', '404', '409', '422', '429', '503']],
      ['/transactions/{id}/refund', 'post', ['200', '400', '401', '404', '409', '422', '429', '503']],
      ['/sandbox/transactions/{id}/return', 'post', ['200', '400', '401', '404', '409', '429']],
    ];
    for (const [path, method, statuses] of expected) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
      expect(operation.tags?.length).toBeGreaterThan(0);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(statuses));
    }
    expect(doc.paths['/transactions/off-ramp'].post.requestBody).toBeDefined();
    expect(doc.components.schemas.ExchangeRate.properties.fees).toBeDefined();
    expect(doc.components.schemas.Transaction.properties.type.enum).toEqual([
      'ON_RAMP',
      'OFF_RAMP',
      'TRANSFER',
      'DEPOSIT',
    ]);
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(
      expect.arrayContaining([
        'insufficient_funds',
        'bank_account_not_verified',
        'exchange_rate_expired',
        'exchange_rate_used',
      ]),
    );
    // the production listener documents the routes too, but not the sandbox simulation
    const production = (await server.production.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(production.paths['/transactions/off-ramp']).toBeDefined();
    expect(production.paths['/sandbox/transactions/{id}/return']).toBeUndefined();
  });

  it('serves the operator routes for partner fees and both directions of market rates', async () => {
    const operator = server.operator;
    for (const method of ['GET', 'POST'] as const) {
      expect(operator.hasRoute({ method, url: '/operator/projects/:id/partner-fees' })).toBe(true);
    }
    const unknown = await operator.inject({
      method: 'GET',
      url: '/operator/projects/0190b5a4-0000-7000-8000-000000000000/partner-fees',
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });
    expect(unknown.statusCode).toBe(404);
    const response = await operator.inject({
      method: 'POST',
      url: '/operator/rates',
      payload: { pair: 'USDT/BRL', rate: '5.4' },
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ pair: 'USDT/BRL', rate: '5.4' });
  });
});
