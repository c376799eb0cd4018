import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer, businessBody, createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import { manualClock, operatorClient } from './support.ts';

const clock = manualClock();
let server: IsolatedServer;
let sandbox: Client;
let operator: Client;

beforeAll(async () => {
  // Individual limits configured away from their defaults: the answer follows the configuration. A
  // database of its own: this clock stands in March, and other files' expiry sweepers, on today's clock,
  // would expire the charges it creates.
  server = await startIsolatedServer({ clock, env: { PONTE_LIMIT_INDIVIDUAL_SINGLE: '5000.50' } });
  const tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  operator = operatorClient(server);
});
afterAll(async () => {
  await server.close();
});

const limitsOf = async (customerId: string) => {
  const response = await sandbox.get(`/customers/${customerId}?includeTransactionLimits=true`);
  expect(response.statusCode).toBe(200);
  return response.json().transactionLimits;
};

async function grant(customerId: string, requested: object, review: object) {
  const request = (await sandbox.post(`/customers/${customerId}/limit-requests`, { requested })).json();
  clock.advance();
  const reviewed = await operator.post(`/operator/limit-requests/${request.id}/review`, review);
  expect(reviewed.statusCode).toBe(200);
}

describe('GET /customers/{id}?includeTransactionLimits=true', () => {
  it('answers no transactionLimits unless asked for', async () => {
    const customer = await createCustomer(sandbox);
    expect((await sandbox.get(`/customers/${customer.id}`)).json()).not.toHaveProperty('transactionLimits');
    const off = (await sandbox.get(`/customers/${customer.id}?includeTransactionLimits=false`)).json();
    expect(off).not.toHaveProperty('transactionLimits');
    expect(off).toEqual(customer);
  });

  it('gives the configured defaults of the customer type, nothing used, everything remaining', async () => {
    const individual = await createCustomer(sandbox, individualBody());
    expect(await limitsOf(individual.id)).toEqual({
      single: { max: '5000.50' },
      daily: { max: '15000.00', used: '0.00', remaining: '15000.00' },
      monthly: { max: '15000.00', used: '0.00', remaining: '15000.00' },
    });
    const business = await createCustomer(sandbox, businessBody());
    expect(await limitsOf(business.id)).toEqual({
      single: { max: '50000.00' },
      daily: { max: '100000.00', used: '0.00', remaining: '100000.00' },
      monthly: { max: '100000.00', used: '0.00', remaining: '100000.00' },
    });
  });

  it('replaces each limit by the latest APPROVED or PARTIALLY_APPROVED grant, ignoring rejections', async () => {
    const customer = await approvedCustomer(sandbox);
    await grant(customer.id, { daily: '20000.00', monthly: '60000.00' }, { decision: 'APPROVE' });
    await grant(
      customer.id,
      { monthly: '90000.00' },
      { decision: 'PARTIALLY_APPROVE', approved: { monthly: '70000.00' }, reviewComment: 'Partial' },
    );
    await grant(customer.id, { single: '12000.00' }, { decision: 'REJECT', reviewComment: 'No' });
    expect(await limitsOf(customer.id)).toEqual({
      single: { max: '5000.50' },
      daily: { max: '20000.00', used: '0.00', remaining: '20000.00' },
      monthly: { max: '70000.00', used: '0.00', remaining: '70000.00' },
    });
  });

  it("counts the customer's transactions in used and remaining", async () => {
    const customer = await approvedCustomer(sandbox);
    const onRamp = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      currency: 'BRL',
      amount: '1234.56',
    });
    expect(onRamp.statusCode).toBe(201);
    expect(await limitsOf(customer.id)).toEqual({
      single: { max: '5000.50' },
      daily: { max: '15000.00', used: '1234.56', remaining: '13765.44' },
      monthly: { max: '15000.00', used: '1234.56', remaining: '13765.44' },
    });
  });

  it('refuses a value that is not a boolean with 400 and answers 404 for an unknown customer', async () => {
    const customer = await createCustomer(sandbox);
    const bad = await sandbox.get(`/customers/${customer.id}?includeTransactionLimits=maybe`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].pointer).toBe('/query/includeTransactionLimits');
    const unknown = await sandbox.get(
      '/customers/00000000-0000-4000-8000-000000000000?includeTransactionLimits=true',
    );
    expect(unknown.statusCode).toBe(404);
  });
});
