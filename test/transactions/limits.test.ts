import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';
import {
  approvedIndividual,
  createOnRamp,
  type IsolatedServer,
  onRamp,
  startIsolatedServer,
} from './support.ts';

let server: TestServer;
let sandbox: Client;
let sandboxKey: string;

beforeAll(async () => {
  server = await startTestServer();
  sandboxKey = (await server.newTenant()).sandboxKey;
  sandbox = client(server.sandbox, sandboxKey);
});
afterAll(() => server.close());

const statuses = (answers: { statusCode: number }[]) =>
  answers.reduce<Record<number, number>>((acc, a) => {
    acc[a.statusCode] = (acc[a.statusCode] ?? 0) + 1;
    return acc;
  }, {});

describe('limits in force on POST /transactions/on-ramp', () => {
  it('refuses an amount above the single limit with 422 limit_exceeded naming it', async () => {
    const customer = await approvedIndividual(sandbox);
    const response = await onRamp(sandbox, customer.id, '7500.01');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'limit_exceeded',
      limit: 'single',
      max: '7500.00',
      remaining: '7500.00',
    });
    expect((await onRamp(sandbox, customer.id, '7500.00')).statusCode).toBe(201);
  });

  it('refuses what exceeds the daily limit, with what remains of it', async () => {
    const customer = await approvedIndividual(sandbox);
    await createOnRamp(sandbox, customer.id, '7500.00');
    await createOnRamp(sandbox, customer.id, '7000.00');
    const response = await onRamp(sandbox, customer.id, '500.01');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'limit_exceeded',
      limit: 'daily',
      max: '15000.00',
      used: '14500.00',
      remaining: '500.00',
    });
    expect(response.json().detail).toBe(
      'The amount 500.01 exceeds what remains of the daily (UTC day) limit: 500.00 of 15000.00 BRL',
    );
    expect((await onRamp(sandbox, customer.id, '500.00')).statusCode).toBe(201);
  });

  it('does not count FAILED transactions', async () => {
    const customer = await approvedIndividual(sandbox);
    const first = await createOnRamp(sandbox, customer.id, '7500.00');
    await createOnRamp(sandbox, customer.id, '7500.00');
    const failed = await sandbox.post(`/sandbox/transactions/${first.id}/deposit`, { amount: '1.00' });
    expect(failed.json().status).toBe('FAILED');
    expect((await onRamp(sandbox, customer.id, '7500.00')).statusCode).toBe(201);
  });

  it("counts only the customer's own transactions", async () => {
    const one = await approvedIndividual(sandbox);
    const other = await approvedIndividual(sandbox);
    await createOnRamp(sandbox, one.id, '7500.00');
    await createOnRamp(sandbox, one.id, '7500.00');
    expect((await onRamp(sandbox, other.id, '7500.00')).statusCode).toBe(201);
  });

  it('30 concurrent requests of 1000.00 against a daily limit of 15000.00: exactly 15 created', async () => {
    const customer = await approvedIndividual(sandbox);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => onRamp(sandbox, customer.id, '1000.00')),
    );
    expect(statuses(answers)).toEqual({ 201: 15, 422: 15 });
    for (const refused of answers.filter((a) => a.statusCode === 422)) {
      expect(refused.json()).toMatchObject({ code: 'limit_exceeded', limit: 'daily', remaining: '0.00' });
    }
    const listed = (await sandbox.get(`/transactions?customerId=${customer.id}`)).json();
    expect(listed.pagination.total).toBe(15);
  });

  describe.runIf(usingPostgres())('on two server processes sharing one database', () => {
    let second: TestServer;
    beforeAll(async () => {
      second = await startTestServer();
    });
    afterAll(() => second.close());

    it('30 concurrent requests spread over two instances: exactly 15 created', async () => {
      const customer = await approvedIndividual(sandbox);
      const apis = [sandbox, client(second.sandbox, sandboxKey)];
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => onRamp(apis[i % 2]!, customer.id, '1000.00')),
      );
      expect(statuses(answers)).toEqual({ 201: 15, 422: 15 });
    });
  });
});

describe('the monthly limit (UTC month)', () => {
  // Daily 10000.00 within a monthly 12000.00, on a clock the test moves from one day to the next.
  let isolated: IsolatedServer;
  let api: Client;
  let now = Date.parse('2031-03-10T23:00:00.000Z');
  beforeAll(async () => {
    isolated = await startIsolatedServer({
      clock: () => new Date(now),
      env: {
        PONTE_LIMIT_INDIVIDUAL_DAILY: '10000.00',
        PONTE_LIMIT_INDIVIDUAL_MONTHLY: '12000.00',
        // charges wait long enough not to expire while the clock moves across days
        PONTE_DEPOSIT_EXPIRY_MINUTES: String(60 * 24 * 60),
      },
    });
    api = client(isolated.sandbox, (await isolated.newTenant()).sandboxKey);
  });
  afterAll(async () => {
    await isolated.close();
  });

  it('counts every day of the month and starts afresh on the first', async () => {
    const customer = await approvedIndividual(api);
    await createOnRamp(api, customer.id, '7500.00');
    now = Date.parse('2031-03-11T01:00:00.000Z'); // a new UTC day: the daily limit is fresh
    const response = await onRamp(api, customer.id, '5000.00');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      limit: 'monthly',
      max: '12000.00',
      used: '7500.00',
      remaining: '4500.00',
    });
    expect((await onRamp(api, customer.id, '4500.00')).statusCode).toBe(201);
    now = Date.parse('2031-04-01T00:00:00.000Z'); // a new UTC month
    expect((await onRamp(api, customer.id, '7500.00')).statusCode).toBe(201);
  });
});
