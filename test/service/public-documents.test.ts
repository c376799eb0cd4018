import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(() => server.close());

describe('public documents, without authentication', () => {
  it('GET /openapi.json is OpenAPI 3.1 with version 1.0.0 and the seed paths, bearer-secured', async () => {
    for (const app of [server.production, server.sandbox]) {
      const response = await app.inject({ method: 'GET', url: '/openapi.json' });
      expect(response.statusCode).toBe(200);
      const doc = response.json();
      expect(doc.openapi).toMatch(/^3\.1\./);
      expect(doc.info.version).toBe('1.0.0');
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      for (const [path, method] of [
        ['/customers/{id}/limit-requests/{limitRequestId}', 'get'],
        ['/customers/{id}/limit-requests', 'get'],
        ['/customers/{id}/verifications/{verificationId}', 'get'],
        ['/bank-accounts/{id}', 'get'],
        ['/customers', 'post'],
        ['/transactions/on-ramp', 'post'],
        ['/transactions/{id}', 'get'],
      ]) {
        const operation = doc.paths[path!]?.[method!];
        expect(operation, `${method} ${path}`).toBeDefined();
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '401']));
      }
      expect(doc.components.schemas.LimitRequest.properties.status.enum).toEqual([
        'IN_REVIEW',
        'APPROVED',
        'PARTIALLY_APPROVED',
        'REJECTED',
      ]);
    }
  });

  it('GET /docs renders the API reference', async () => {
    const response = await server.sandbox.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('/openapi.json');
  });
});
