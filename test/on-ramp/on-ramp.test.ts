import { parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmvFields } from '../../src/lib/pix-brcode.ts';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { approvedIndividual, createOnRamp, onRamp } from '../transactions/support.ts';

let server: TestServer;
let sandbox: Client;
let stranger: Client;

beforeAll(async () => {
  server = await startTestServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
  stranger = client(server.sandbox, (await server.newTenant('Stranger')).sandboxKey);
});
afterAll(() => server.close());

describe('POST /transactions/on-ramp', () => {
  it('creates an AWAITING_FUNDS on-ramp with PIX deposit instructions', async () => {
    const customer = await approvedIndividual(sandbox);
    const response = await onRamp(sandbox, customer.id, '1500.5');
    expect(response.statusCode).toBe(201);
    const transaction = response.json();
    expect(transaction).toMatchObject({
      customerId: customer.id,
      type: 'ON_RAMP',
      status: 'AWAITING_FUNDS',
      request: { currency: 'BRL', amount: '1500.50', targetCurrency: 'USDC' },
      depositInstructions: { rail: 'PIX', amount: '1500.50', currency: 'BRL' },
      receipt: null,
      failureReason: null,
      timeline: [{ status: 'AWAITING_FUNDS', at: transaction.createdAt }],
    });
    expect(transaction.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(transaction.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(transaction.updatedAt).toBe(transaction.createdAt);
    const expiresIn =
      Date.parse(transaction.depositInstructions.expiresAt) - Date.parse(transaction.createdAt);
    expect(expiresIn).toBe(30 * 60_000);
  });

  it('answers a BR Code of this exact charge: platform key, amount, a unique txid, valid CRC', async () => {
    const customer = await approvedIndividual(sandbox);
    const first = await createOnRamp(sandbox, customer.id, '250.00');
    const second = await createOnRamp(sandbox, customer.id, '250.00');
    const parsed = parsePix(first.depositInstructions.brCode);
    expect(parsed).toMatchObject({ type: 'STATIC', transactionAmount: 250, merchantName: 'PONTE' });
    const fields = readEmvFields(first.depositInstructions.brCode);
    expect(fields.get('54')).toBe('250.00');
    const txid = (code: string) => readEmvFields(readEmvFields(code).get('62')!).get('05');
    expect(txid(first.depositInstructions.brCode)).toMatch(/^[A-Za-z0-9]{25}$/);
    expect(txid(first.depositInstructions.brCode)).not.toBe(txid(second.depositInstructions.brCode));
  });

  it('takes USDT as the target currency', async () => {
    const customer = await approvedIndividual(sandbox);
    const transaction = await createOnRamp(sandbox, customer.id, '10.00', { targetCurrency: 'USDT' });
    expect(transaction.request.targetCurrency).toBe('USDT');
  });

  it('records a transaction.created event with the transaction', async () => {
    const customer = await approvedIndividual(sandbox);
    const transaction = await createOnRamp(sandbox, customer.id, '10.00');
    const events = await server.ctx.db.query<{ type: string; data: unknown }>(
      'SELECT type, data FROM events WHERE resource_id = $1 ORDER BY seq',
      [transaction.id],
    );
    expect(events).toEqual([{ type: 'transaction.created', data: transaction }]);
  });

  it('refuses a customer that is not APPROVED with 409 customer_not_approved', async () => {
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    const response = await onRamp(sandbox, customer.id, '10.00');
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('customer_not_approved');
  });

  it("answers 404 for an unknown customer and for another project's customer", async () => {
    const unknown = await onRamp(sandbox, '00000000-0000-4000-8000-000000000000', '10.00');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('not_found');
    const customer = await approvedIndividual(sandbox);
    expect((await onRamp(stranger, customer.id, '10.00')).statusCode).toBe(404);
  });

  it('reports every invalid field with a pointer, and writes nothing', async () => {
    const response = await sandbox.post('/transactions/on-ramp', {
      customerId: 'nope',
      currency: 'USD',
      amount: 10,
      targetCurrency: 'BTC',
      memo: 'x',
    });
    expect(response.statusCode).toBe(400);
    const pointers = response
      .json()
      .errors.map((e: { pointer: string }) => e.pointer)
      .sort();
    expect(pointers).toEqual([
      '/body/amount',
      '/body/currency',
      '/body/customerId',
      '/body/memo',
      '/body/targetCurrency',
    ]);
  });

  it('refuses a zero amount and one a PIX charge cannot carry', async () => {
    const customer = await approvedIndividual(sandbox);
    for (const amount of ['0', '0.00', '10000000000.00']) {
      const response = await onRamp(sandbox, customer.id, amount);
      expect(response.statusCode, amount).toBe(400);
      expect(response.json().errors[0].pointer).toBe('/body/amount');
    }
  });

  it('refuses production on-ramps while no PIX PSP is configured', async () => {
    const production = client(server.production, (await server.newTenant()).productionKey);
    const response = await onRamp(production, '00000000-0000-4000-8000-000000000000', '10.00');
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('service_unavailable');
  });
});

describe('the retired PIX provider protocol', () => {
  it('serves no /rails/pix/notifications route any more, nor a PSP webhook while no PSP is configured', async () => {
    for (const url of ['/rails/pix/notifications', '/rails/pix/webhook/pix']) {
      const response = await server.production.inject({ method: 'POST', url, payload: { pix: [] } });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('GET /transactions/{id} and GET /transactions', () => {
  it('reads a transaction', async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '42.00');
    const response = await sandbox.get(`/transactions/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);
  });

  it("answers 404 for an unknown id, another project's transaction, and 400 for a malformed id", async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '42.00');
    expect((await stranger.get(`/transactions/${created.id}`)).statusCode).toBe(404);
    expect((await sandbox.get('/transactions/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const malformed = await sandbox.get('/transactions/nope');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].pointer).toBe('/path/id');
  });

  it("lists a customer's transactions newest first, paged", async () => {
    const customer = await approvedIndividual(sandbox);
    const ids: string[] = [];
    for (const amount of ['1.00', '2.00', '3.00'])
      ids.push((await createOnRamp(sandbox, customer.id, amount)).id);
    const first = (await sandbox.get(`/transactions?customerId=${customer.id}&limit=2`)).json();
    expect(first.data.map((t: { id: string }) => t.id)).toEqual([ids[2], ids[1]]);
    expect(first.pagination).toEqual({ size: 2, total: 3, hasNextPage: true, page: 1, nextCursor: '2' });
    const second = (await sandbox.get(`/transactions?customerId=${customer.id}&limit=2&cursor=2`)).json();
    expect(second.data.map((t: { id: string }) => t.id)).toEqual([ids[0]]);
    expect(second.pagination.hasNextPage).toBe(false);
    const past = (await sandbox.get(`/transactions?customerId=${customer.id}&page=9`)).json();
    expect(past.data).toEqual([]);
  });

  it("lists only the tenant's own transactions", async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '5.00');
    const all = (await sandbox.get('/transactions?limit=50')).json();
    expect(all.data.some((t: { id: string }) => t.id === created.id)).toBe(true);
    const theirs = (await stranger.get(`/transactions?customerId=${customer.id}`)).json();
    expect(theirs.data).toEqual([]);
    expect(theirs.pagination.total).toBe(0);
  });
});
