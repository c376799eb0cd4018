/**
 * Reads by id made together (`GET /transactions/{id}`, `GET /customers/{id}`) share statements: each
 * still answers its own row, and never another tenant's or another environment's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { fund } from '../wallets/support.ts';
import { approvedIndividual, createOnRamp } from './support.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;
let stranger: Client;

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
  stranger = client(server.sandbox, (await server.newTenant('Stranger')).sandboxKey);
});
afterAll(() => server.close());

type Read = { api: Client; path: string; expected: unknown };

async function readTogether(reads: Read[]) {
  const answers = await Promise.all(reads.map(({ api, path }) => api.get(path)));
  answers.forEach((answer, index) => {
    const { expected, path } = reads[index]!;
    if (expected) {
      expect(answer.statusCode, path).toBe(200);
      expect(answer.json()).toEqual(expected);
    } else expect(answer.statusCode, path).toBe(404);
  });
}

describe('GET /transactions/{id}', () => {
  it('answers reads made together each with its own ramp or deposit: another tenant’s or environment’s 404', async () => {
    const customer = await approvedIndividual(sandbox);
    const theirCustomer = await approvedIndividual(stranger);
    const mine = [];
    for (let i = 0; i < 10; i++) mine.push(await createOnRamp(sandbox, customer.id, `${i + 1}.00`));
    const deposits = [await fund(sandbox, customer.id, '3'), await fund(sandbox, customer.id, '4')];
    const theirs = [
      await createOnRamp(stranger, theirCustomer.id, '2.00'),
      await fund(stranger, theirCustomer.id, '1'),
    ];
    const at = (id: string) => `/transactions/${id}`;
    await readTogether([
      ...[...mine, ...deposits].map((tx) => ({ api: sandbox, path: at(tx.id), expected: tx })),
      ...theirs.map((tx) => ({ api: stranger, path: at(tx.id), expected: tx })),
      ...theirs.map((tx) => ({ api: sandbox, path: at(tx.id), expected: undefined })),
      ...[mine[0], deposits[0]].map((tx) => ({ api: production, path: at(tx.id), expected: undefined })),
      { api: sandbox, path: at('0190c7a0-0000-7000-8000-000000000000'), expected: undefined },
    ]);
  });
});

describe('GET /customers/{id}', () => {
  // in production, where no simulated verification moves a customer on between its creation and the reads
  it('answers reads made together each with its own customer: another tenant’s or environment’s 404', async () => {
    const other = client(server.production, (await server.newTenant('Other')).productionKey);
    const mine = [];
    for (let i = 0; i < 12; i++) mine.push(await createCustomer(production));
    const theirs = [await createCustomer(other), await createCustomer(other)];
    const at = (id: string) => `/customers/${id}`;
    await readTogether([
      ...mine.map((customer) => ({ api: production, path: at(customer.id), expected: customer })),
      ...theirs.map((customer) => ({ api: other, path: at(customer.id), expected: customer })),
      ...theirs.map((customer) => ({ api: production, path: at(customer.id), expected: undefined })),
      ...mine.slice(0, 3).map((customer) => ({ api: sandbox, path: at(customer.id), expected: undefined })),
    ]);
  });
});
