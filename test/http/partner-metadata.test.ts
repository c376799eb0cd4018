/**
 * Partner metadata on customers, bank accounts and on-ramps (the off-ramps' rules: up to 20 keys, string
 * values up to 500 characters, depth 1), stored and answered; its keys bounded to 1-40 characters on
 * every resource that takes metadata; and the 409 customer_exists naming the existing customer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBody } from '../bank-accounts/bodies.ts';
import {
  approvedCustomer,
  type CustomerView,
  createCustomer,
  individualBody,
  validCpf,
} from '../helpers/factories.ts';
import { type Client, startTestApi, type TestServer } from '../helpers/server.ts';
import { customerWithAccount, fund as fundThroughOnRamp } from '../off-ramp/support.ts';
import { createOnRamp } from '../transactions/support.ts';
import { fund as fundWallet } from '../wallets/support.ts';

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

/**
 * Every resource that takes metadata, as a body around given metadata, and a count of what the customer
 * has of it (to show a refused request created nothing).
 */
type Resource = {
  name: string;
  path: string;
  body(customer: CustomerView, accountId: string, metadata: unknown): Record<string, unknown>;
  count(customer: CustomerView): Promise<number>;
};

const totalOf = async (path: string) => (await sandbox.get(path)).json().pagination.total as number;
const transactionsOf = (customer: CustomerView) => totalOf(`/transactions?customerId=${customer.id}&limit=1`);

const RESOURCES: Resource[] = [
  {
    name: 'customers',
    path: '/customers',
    body: (_customer, _account, metadata) => individualBody({ metadata }),
    count: () => totalOf('/customers?limit=1'),
  },
  {
    name: 'bank accounts',
    path: '/bank-accounts',
    body: (customer, _account, metadata) => ({ ...accountBody(customer.id), metadata }),
    count: (customer) => totalOf(`/bank-accounts?customerId=${customer.id}&limit=1`),
  },
  {
    name: 'on-ramps',
    path: '/transactions/on-ramp',
    body: (customer, _account, metadata) => ({
      customerId: customer.id,
      currency: 'BRL',
      amount: '10.00',
      metadata,
    }),
    count: transactionsOf,
  },
  {
    name: 'off-ramps',
    path: '/transactions/off-ramp',
    body: (customer, accountId, metadata) => ({
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '1',
      purpose: 'PERSONAL_ACCOUNT',
      metadata,
    }),
    count: transactionsOf,
  },
  {
    name: 'transfers',
    path: '/transactions/transfer',
    body: (customer, _account, metadata) => ({
      currency: 'USDC',
      from: customer.id,
      to: '0x000000000000000000000000000000000000dEaD',
      amount: '1.000000',
      metadata,
    }),
    count: transactionsOf,
  },
];

describe('metadata keys are bounded as values are', () => {
  // A customer able to make every kind of request: approved, with a PIX account, USDC on hand and in a wallet.
  let customer: CustomerView;
  let accountId: string;
  beforeAll(async () => {
    ({ customer, accountId } = await customerWithAccount(sandbox));
    await fundThroughOnRamp(sandbox, customer.id, '100.00');
    await fundWallet(sandbox, customer.id, '10.000000');
  });

  const longest = 'k'.repeat(40);
  const refused: [string, string, string][] = [
    ['a 41-character key', 'k'.repeat(41), 'key must be at most 40 characters long'],
    ['a 5,000-character key', 'k'.repeat(5_000), 'key must be at most 40 characters long'],
    ['an empty key', '', 'key must not be empty'],
  ];

  for (const resource of RESOURCES) {
    for (const [what, key, message] of refused) {
      it(`refuses ${what} on ${resource.name} with 400 and a pointer to the key, creating nothing`, async () => {
        const before = await resource.count(customer);
        const answer = await sandbox.post(
          resource.path,
          resource.body(customer, accountId, { orderId: 'A-1', [key]: 'v' }),
        );
        expect(answer.statusCode).toBe(400);
        expect(answer.headers['content-type']).toContain('application/problem+json');
        expect(answer.json()).toMatchObject({
          code: 'invalid_request',
          errors: [{ pointer: `/body/metadata/${key}`, message }],
        });
        expect(answer.json().errors).toHaveLength(1);
        expect(await resource.count(customer)).toBe(before);
      });
    }

    it(`takes a 40-character key on ${resource.name} and answers it back`, async () => {
      const before = await resource.count(customer);
      const answer = await sandbox.post(
        resource.path,
        resource.body(customer, accountId, { [longest]: 'v' }),
      );
      expect(answer.statusCode, answer.body).toBe(201);
      expect(answer.json().metadata).toEqual({ [longest]: 'v' });
      expect(await resource.count(customer)).toBe(before + 1);
    });
  }

  it('publishes the bound in the OpenAPI document', async () => {
    const document = (await server.sandbox.inject({ url: '/openapi.json' })).json();
    const body = document.paths['/customers'].post.requestBody.content['application/json'].schema;
    const resolved = body.$ref ? document.components.schemas[body.$ref.split('/').pop()] : body;
    expect(resolved.properties.metadata.propertyNames).toEqual({ minLength: 1, maxLength: 40 });
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
