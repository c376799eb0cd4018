/**
 * What a refused field says: the rule in words a partner can act on (a country as BRA, a date as
 * YYYY-MM-DD, a length in characters), never the validator's own ("must NOT have fewer than 3
 * characters"), and the detail in correct English.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  api = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(() => server.close());

async function errorsOf(answer: Promise<{ statusCode: number; json(): { errors?: unknown } }>) {
  const response = await answer;
  expect(response.statusCode).toBe(400);
  return response.json().errors;
}

describe('validation messages', () => {
  it('names a country code as ISO 3166-1 alpha-3, with an example', async () => {
    expect(await errorsOf(api.post('/customers', { ...individualBody(), country: 'BR' }))).toEqual([
      {
        pointer: '/body/country',
        message: 'must be an ISO 3166-1 alpha-3 country code (three letters), such as BRA',
      },
    ]);
  });

  it('shows how a date is written', async () => {
    expect(await errorsOf(api.post('/customers', { ...individualBody(), birthDate: '14/05/1990' }))).toEqual([
      { pointer: '/body/birthDate', message: 'must be a date written YYYY-MM-DD, such as 2019-05-14' },
    ]);
  });

  it('shows how an instant is written', async () => {
    expect(await errorsOf(api.get('/transactions?createdFrom=yesterday'))).toEqual([
      {
        pointer: '/query/createdFrom',
        message: 'must be an instant in ISO 8601 with its offset, such as 2026-11-26T14:05:00Z',
      },
    ]);
  });

  it('says an empty or over-long text in characters', async () => {
    expect(await errorsOf(api.post('/customers', { ...individualBody(), name: '' }))).toEqual([
      { pointer: '/body/name', message: 'must not be empty' },
    ]);
    expect(await errorsOf(api.post('/customers', { ...individualBody(), name: 'x'.repeat(201) }))).toEqual([
      { pointer: '/body/name', message: 'must be at most 200 characters long' },
    ]);
  });

  it('says a body must be a JSON object', async () => {
    const customer = (await api.post('/customers', individualBody())).json();
    expect(await errorsOf(api.post(`/customers/${customer.id}/tos`, undefined))).toEqual([
      { pointer: '/body', message: 'must be a JSON object' },
    ]);
  });

  it('words a refused header in correct English, and its length in characters', async () => {
    const answer = await api.post('/customers', individualBody(), { 'idempotency-key': 'k'.repeat(256) });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      detail: 'The request headers are invalid',
      errors: [{ pointer: '/headers/idempotency-key', message: 'must be at most 255 characters long' }],
    });
  });
});
