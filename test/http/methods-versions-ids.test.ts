/**
 * The edges of the public interface: a method a path lacks (405 with `Allow`), the API version (the
 * default holds; an unknown one is refused), and ids (the document's pattern is exactly what is accepted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, DEFAULT_API_VERSION } from '../../src/core/api-version.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, startTestApi, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let production: Client;

beforeAll(async () => {
  ({ server, production } = await startTestApi());
});
afterAll(() => server.close());

describe('a method a path lacks', () => {
  it('answers GET /transactions/on-ramp with 405, Allow: POST and problem+json, not 400', async () => {
    for (const path of ['/transactions/on-ramp', '/transactions/off-ramp', '/transactions/transfer']) {
      const response = await production.get(path);
      expect(response.statusCode, path).toBe(405);
      expect(response.headers.allow).toBe('POST');
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 405, code: 'method_not_allowed' });
    }
    // without a key as well: the method is wrong whoever asks
    const anonymous = await server.production.inject({ method: 'GET', url: '/transactions/on-ramp' });
    expect(anonymous.statusCode).toBe(405);
  });

  it('answers a method a parametric path lacks with 405 and the methods it serves', async () => {
    const customer = await createCustomer(production, individualBody());
    const del = await production.delete(`/customers/${customer.id}`);
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toContain('GET');
    const put = await server.production.inject({ method: 'PUT', url: '/customers' });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toContain('POST');
    // the routes themselves are untouched
    expect((await production.get(`/customers/${customer.id}`)).statusCode).toBe(200);
    expect((await production.get('/transactions/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('documents 405 and Allow in the served document', async () => {
    const document = (await server.production.inject({ url: '/openapi.json' })).json();
    expect(document.info.description).toContain('405');
    expect(document.info.description).toContain('Allow');
  });
});

describe('API-Version', () => {
  it('serves a request without the header under the default version, and says so', async () => {
    expect(DEFAULT_API_VERSION).toBe('2026-11-26');
    const response = await production.get('/customers?limit=1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['api-version']).toBe(DEFAULT_API_VERSION);
    const failed = await production.get('/customers/not-an-id');
    expect(failed.headers['api-version']).toBe(DEFAULT_API_VERSION);
  });

  it('serves a known version when asked, and refuses an unknown one with 400 before doing anything', async () => {
    const asked = await production.get('/customers?limit=1', { 'api-version': API_VERSIONS[0] });
    expect(asked.headers['api-version']).toBe(API_VERSIONS[0]);
    const before = (await production.get('/customers?limit=1')).json().pagination.total;
    const unknown = await production.post('/customers', individualBody(), { 'api-version': '2020-01-01' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([
      { pointer: '/headers/api-version', message: `must be one of ${API_VERSIONS.join(', ')}` },
    ]);
    expect((await production.get('/customers?limit=1')).json().pagination.total).toBe(before);
  });

  it('documents the header, its values and its default in the served document', async () => {
    const document = (await server.production.inject({ url: '/openapi.json' })).json();
    expect(document.components.parameters.ApiVersion).toMatchObject({
      name: 'API-Version',
      in: 'header',
      schema: { enum: [...API_VERSIONS], default: DEFAULT_API_VERSION },
    });
    expect(document.paths['/customers'].get.parameters).toContainEqual({
      $ref: '#/components/parameters/ApiVersion',
    });
    expect(document.paths['/customers'].get.responses['200'].headers['API-Version']).toBeDefined();
  });
});

describe('ids', () => {
  it('declares the canonical form as a pattern and refuses the urn:uuid: form it does not match', async () => {
    const document = (await server.production.inject({ url: '/openapi.json' })).json();
    const id = document.paths['/customers/{id}'].get.parameters.find(
      (p: { name: string }) => p.name === 'id',
    );
    const pattern = new RegExp(id.schema.pattern);
    const customer = await createCustomer(production, individualBody());
    expect(pattern.test(customer.id)).toBe(true);
    expect(pattern.test(customer.id.toUpperCase())).toBe(true);
    const urn = `urn:uuid:${customer.id}`;
    expect(pattern.test(urn)).toBe(false);
    const refused = await production.get(`/customers/${urn}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ pointer: '/path/id', message: 'must be a valid UUID' }]);
    expect((await production.get(`/customers/${customer.id.toUpperCase()}`)).statusCode).toBe(200);
  });
});
