/**
 * Customers' USD accounts through the API: opened for APPROVED customers only, with a US account number
 * (simulated in a sandbox without a bank), read, listed and closed, each change with its `account.updated`
 * event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ROUTING_NUMBER, sandboxAccountNumbers } from '../../src/modules/accounts/numbers.ts';
import { createAccountService } from '../../src/modules/accounts/service.ts';
import { screenSubject } from '../../src/modules/screening/service.ts';
import { approvedCustomer, createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestApi, type TestServer } from '../helpers/server.ts';
import { importFixture, OFAC_DIR } from '../screening/support.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;
let projectId: string;

beforeAll(async () => {
  const api = await startTestApi();
  ({ server, sandbox, production } = api);
  projectId = api.tenant.projectId;
});
afterAll(() => server.close());

const ACCOUNT_KEYS = [
  'blockchain',
  'closedAt',
  'createdAt',
  'currency',
  'customerId',
  'depositInstructions',
  'destinationCurrency',
  'id',
  'status',
  'updatedAt',
];

async function accountEvents(accountId: string) {
  const page = (await sandbox.get('/events?type=account.updated&limit=50')).json();
  return page.data
    .filter((event: { data: { id: string } }) => event.data.id === accountId)
    .reverse()
    .map((event: { data: { status: string } }) => event.data);
}

describe('POST /customers/{id}/accounts', () => {
  it('opens an ACTIVE USD account with deposit instructions for an APPROVED customer', async () => {
    const customer = await approvedCustomer(sandbox);
    const response = await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' });
    expect(response.statusCode, response.body).toBe(201);
    const account = response.json();
    expect(Object.keys(account).sort()).toEqual(ACCOUNT_KEYS);
    expect(account).toMatchObject({
      customerId: customer.id,
      currency: 'USD',
      status: 'ACTIVE',
      destinationCurrency: 'USDC',
      blockchain: server.config.chains.defaultChain,
      closedAt: null,
      depositInstructions: {
        rails: ['ACH', 'WIRE'],
        bankName: 'Ponte Sandbox Bank',
        bankAddress: null,
        routingNumber: SANDBOX_ROUTING_NUMBER,
        beneficiaryName: 'Ana Souza',
      },
    });
    expect(account.depositInstructions.accountNumber).toMatch(/^9\d{12}$/);
    expect((await sandbox.get(`/accounts/${account.id}`)).json()).toEqual(account);
  });

  it('takes the destination stablecoin and chain asked for', async () => {
    const customer = await approvedCustomer(sandbox);
    const response = await sandbox.post(`/customers/${customer.id}/accounts`, {
      currency: 'USD',
      destinationCurrency: 'USDT',
      blockchain: 'TRON',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ destinationCurrency: 'USDT', blockchain: 'TRON' });
  });

  it('records account.updated for PROVISIONING then ACTIVE, each carrying the account as answered then', async () => {
    const customer = await approvedCustomer(sandbox);
    const account = (await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).json();
    const events = await accountEvents(account.id);
    expect(events.map((e: { status: string }) => e.status)).toEqual(['PROVISIONING', 'ACTIVE']);
    expect(events[0].depositInstructions).toBeNull();
    expect(events[1]).toEqual(account);
  });

  it('refuses a customer who is not APPROVED: 409 customer_not_approved, nothing opened', async () => {
    const pending = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    const response = await sandbox.post(`/customers/${pending.id}/accounts`, { currency: 'USD' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'customer_not_approved' });
    expect(response.json().detail).toMatch(/APPROVED/);
    expect((await sandbox.get(`/customers/${pending.id}/accounts`)).json().data).toEqual([]);
  });

  it('refuses a customer on compliance hold: 409 compliance_hold, nothing opened', async () => {
    await importFixture(server, 'ofac-sdn', OFAC_DIR);
    const customer = await approvedCustomer(sandbox);
    const opened = await server.ctx.db.transaction((tx) =>
      screenSubject(
        tx,
        {
          type: 'CUSTOMER',
          id: customer.id,
          customerId: customer.id,
          tenant: { projectId, environment: 'sandbox' },
          // OFAC fixture entry 90004
          party: {
            name: 'João Carlos dos Santos da Silva',
            kind: 'INDIVIDUAL',
            birthDate: '1975-02-02',
            country: 'BRA',
          },
        },
        server.config.screening.threshold,
        server.ctx.clock(),
      ),
    );
    expect(opened).toBeTruthy();
    const response = await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'compliance_hold' });
    expect((await sandbox.get(`/customers/${customer.id}/accounts`)).json().data).toEqual([]);
  });

  it("answers 404 for an unknown customer and for another project's", async () => {
    expect(
      (await sandbox.post(`/customers/${crypto.randomUUID()}/accounts`, { currency: 'USD' })).statusCode,
    ).toBe(404);
    const customer = await approvedCustomer(sandbox);
    const other = await server.newTenant();
    const stranger = client(server.sandbox, other.sandboxKey);
    expect((await stranger.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).statusCode).toBe(
      404,
    );
  });

  it('refuses another currency, an unknown stablecoin or an unknown field: 400', async () => {
    const customer = await approvedCustomer(sandbox);
    for (const body of [
      { currency: 'BRL' },
      {},
      { currency: 'USD', destinationCurrency: 'DAI' },
      { currency: 'USD', nickname: 'x' },
    ]) {
      const response = await sandbox.post(`/customers/${customer.id}/accounts`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('invalid_request');
    }
  });

  it('production without a US bank configured answers 503 service_unavailable', async () => {
    const customer = await createCustomer(production);
    const response = await production.post(`/customers/${customer.id}/accounts`, { currency: 'USD' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'service_unavailable' });
    expect((await production.get(`/customers/${customer.id}/accounts`)).json().data).toEqual([]);
  });
});

describe('GET /customers/{id}/accounts and GET /accounts/{id}', () => {
  it("lists a customer's accounts newest first, and none of another customer's", async () => {
    const customer = await approvedCustomer(sandbox);
    const first = (await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).json();
    const second = (
      await sandbox.post(`/customers/${customer.id}/accounts`, {
        currency: 'USD',
        destinationCurrency: 'USDT',
      })
    ).json();
    const listed = (await sandbox.get(`/customers/${customer.id}/accounts`)).json();
    expect(listed.data.map((a: { id: string }) => a.id)).toEqual([second.id, first.id]);
    expect(listed.pagination).toMatchObject({ total: 2 });
    const otherCustomer = await approvedCustomer(sandbox);
    expect((await sandbox.get(`/customers/${otherCustomer.id}/accounts`)).json().data).toEqual([]);
  });

  it("answers 404 for an unknown account, another project's, or another environment's", async () => {
    const customer = await approvedCustomer(sandbox);
    const account = (await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).json();
    expect((await sandbox.get(`/accounts/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await production.get(`/accounts/${account.id}`)).statusCode).toBe(404);
    const other = await server.newTenant();
    expect((await client(server.sandbox, other.sandboxKey).get(`/accounts/${account.id}`)).statusCode).toBe(
      404,
    );
    expect((await sandbox.get(`/customers/${crypto.randomUUID()}/accounts`)).statusCode).toBe(404);
  });
});

describe('DELETE /accounts/{id}', () => {
  it('closes the account with its event; closing again answers it as it is', async () => {
    const customer = await approvedCustomer(sandbox);
    const account = (await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).json();
    const closed = await sandbox.delete(`/accounts/${account.id}`);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ id: account.id, status: 'CLOSED' });
    expect(closed.json().closedAt).toMatch(/Z$/);
    expect(closed.json().depositInstructions).toEqual(account.depositInstructions);
    const again = await sandbox.delete(`/accounts/${account.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(closed.json());
    expect((await sandbox.get(`/accounts/${account.id}`)).json()).toEqual(closed.json());
    const statuses = (await accountEvents(account.id)).map((e: { status: string }) => e.status);
    expect(statuses).toEqual(['PROVISIONING', 'ACTIVE', 'CLOSED']);
  });

  it('answers 404 for an unknown account', async () => {
    expect((await sandbox.delete(`/accounts/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });
});

describe('the sandbox bank', () => {
  it('gives the same account an account number derived from its id, and other accounts other numbers', async () => {
    const numbers = sandboxAccountNumbers();
    const id = '01938d3f-0000-7000-8000-000000000001';
    const first = await numbers.open({ accountId: id, beneficiaryName: 'A' });
    expect(await numbers.open({ accountId: id, beneficiaryName: 'A' })).toEqual(first);
    const other = await numbers.open({
      accountId: '01938d3f-0000-7000-8000-000000000002',
      beneficiaryName: 'A',
    });
    expect(other.accountNumber).not.toBe(first.accountNumber);
  });

  it('uses a routing number that passes the ABA checksum (3-7-1 weights)', () => {
    const digits = [...SANDBOX_ROUTING_NUMBER].map(Number);
    const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
    expect(digits.reduce((sum, digit, i) => sum + digit * (weights[i] as number), 0) % 10).toBe(0);
  });
});

describe('a bank that answers a number another account has', () => {
  it('keeps the second account PROVISIONING instead of giving one number to two accounts, with no 5xx', async () => {
    const sandboxBank = sandboxAccountNumbers();
    // the same number for every account, as a faulty bank might answer
    const clashing = {
      ...sandboxBank,
      open: () =>
        sandboxBank.open({ accountId: '01938d3f-0000-7000-8000-0000000000aa', beneficiaryName: 'X' }),
    };
    const accounts = createAccountService({ ...server.ctx, numbers: () => clashing });
    const tenant = { projectId, environment: 'sandbox' as const };
    const first = await accounts.create(tenant, (await approvedCustomer(sandbox)).id, { currency: 'USD' });
    const second = await accounts.create(tenant, (await approvedCustomer(sandbox)).id, { currency: 'USD' });
    expect(first.status).toBe('ACTIVE');
    expect(second.status).toBe('PROVISIONING');
    expect(second.depositInstructions).toBeNull();
  });
});
