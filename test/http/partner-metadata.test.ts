/**
 * Partner metadata on customers, bank accounts and on-ramps (the off-ramps' rules: up to 20 keys, string
 * values up to 500 characters, depth 1), stored and answered; and the 409 customer_exists naming the
 * existing customer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBody } from '../bank-accounts/bodies.ts';
import { approvedCustomer, createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, startTestApi, type TestServer } from '../helpers/server.ts';
import { createOnRamp } from '../transactions/support.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;

beforeAll(async () => {
  ({ server, sandbox, production } = await startTestApi());
});
afterAll(() => server.close());

const metadata = { orderId: 'ord_123', note: 'é'.repeat(500) };
const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));

describe('metadata', () => {
  it('is stored and answered on customers: on creation, read and list; {} when none was given', async () => {
    const customer = await createCustomer(production, individualBody({ metadata }));
    expect(customer).toMatchObject({ metadata });
    expect((await production.get(`/customers/${customer.id}`)).json().metadata).toEqual(metadata);
    const listed = (await production.get('/customers?limit=50')).json().data;
    expect(listed.find((c: { id: string }) => c.id === customer.id).metadata).toEqual(metadata);
    expect((await createCustomer(production, individualBody())).metadata).toEqual({});
  });

  it('is stored and answered on bank accounts and on-ramps', async () => {
    const customer = await approvedCustomer(sandbox, individualBody());
    const account = await sandbox.post('/bank-accounts', { ...accountBody(customer.id), metadata });
    expect(account.statusCode).toBe(201);
    expect(account.json().metadata).toEqual(metadata);
    expect((await sandbox.get(`/bank-accounts/${account.json().id}`)).json().metadata).toEqual(metadata);
    const ramp = await createOnRamp(sandbox, customer.id, '10.00', { metadata });
    expect(ramp.metadata).toEqual(metadata);
    expect((await sandbox.get(`/transactions/${ramp.id}`)).json().metadata).toEqual(metadata);
    expect((await createOnRamp(sandbox, customer.id, '10.00')).metadata).toEqual({});
  });

  it('refuses more than 20 keys, values over 500 characters, and nested values, creating nothing', async () => {
    const customer = await approvedCustomer(sandbox, individualBody());
    const before = (await sandbox.get('/customers?limit=1')).json().pagination.total;
    for (const bad of [tooMany, { long: 'x'.repeat(501) }, { nested: { a: 'b' } }, { number: 1 }]) {
      const created = await sandbox.post('/customers', individualBody({ metadata: bad }));
      expect(created.statusCode, JSON.stringify(bad).slice(0, 40)).toBe(400);
      expect(created.json().errors[0].pointer).toMatch(/^\/body\/metadata/);
      expect(
        (await sandbox.post('/bank-accounts', { ...accountBody(customer.id), metadata: bad })).statusCode,
      ).toBe(400);
      const ramp = await sandbox.post('/transactions/on-ramp', {
        customerId: customer.id,
        currency: 'BRL',
        amount: '10.00',
        metadata: bad,
      });
      expect(ramp.statusCode).toBe(400);
    }
    expect((await sandbox.get('/customers?limit=1')).json().pagination.total).toBe(before);
  });
});

describe('409 customer_exists', () => {
  it("names the existing customer's id in the problem body", async () => {
    const taxId = validCpf();
    const first = await createCustomer(production, individualBody({ taxId }));
    const again = await production.post('/customers', individualBody({ taxId: taxId.replace(/\D/g, '') }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'customer_exists', customerId: first.id });
    expect(again.json().detail).toContain(first.id);
    const document = (await server.production.inject({ url: '/openapi.json' })).json();
    expect(document.components.schemas.Problem.properties.customerId).toBeDefined();
  });
});
