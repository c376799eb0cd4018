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
    expect(doc.components.schemas.Transaction.properties.type.enum).toEqual(['ON_RAMP', 'OFF_RAMP']);
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

  it('documents the operator routes for partner fees and both directions of market rates', async () => {
    const operator = server.operator;
    const routes = operator.printRoutes({ commonPrefix: false });
    expect(routes).toContain('/operator/projects/:id/partner-fees');
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
