/**
 * Input the database cannot hold is refused at the boundary with a 400 problem and nothing stored:
 * NUL characters and unpaired surrogates in any text, page numbers past any sensible offset, UUIDs
 * other than the canonical form, dates outside the years 0001-9999. Also answered as problems: path
 * parameters over the router's length limit; and a DELETE that announces JSON without a body is
 * accepted.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPix } from '../../src/rails/pix/psp/api-pix.ts';
import { businessBody, createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { PIX_KEY, testCertificates, WEBHOOK_URL } from '../psp/support.ts';

let server: TestServer;
let tenant: Tenant;
let sandbox: Client;
let operator: Client;
let customerId: string;

beforeAll(async () => {
  const certificates = testCertificates();
  // a PSP that is never called: only its webhook route is exercised
  server = await startTestServer({
    workers: false,
    env: {
      PONTE_PIX_PSP: 'efi',
      PONTE_PIX_PSP_URL: 'https://127.0.0.1:9',
      PONTE_PIX_CLIENT_ID: 'id',
      PONTE_PIX_CLIENT_SECRET: 'secret',
      PONTE_PIX_CERT: certificates.clientPemPath,
      PONTE_PIX_PSP_CA: certificates.caPath,
      PONTE_PIX_KEY: PIX_KEY,
      PONTE_PIX_WEBHOOK_URL: WEBHOOK_URL,
    },
  });
  tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  operator = client(server.operator, server.operatorToken);
  customerId = (await createCustomer(sandbox, individualBody())).id;
}, 180_000);
afterAll(() => server.close());

// counted where only this file writes: other files share the database (PostgreSQL) and write meanwhile
const count = async (sql: string, params: unknown[]) =>
  Number((await server.ctx.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${sql}`, params))[0]!.n);
const tenantCustomers = () => count('customers WHERE project_id = $1', [tenant.projectId]);
const projectsNamedAna = () => count("projects WHERE name LIKE 'Ana%Souza'", []);

function expectRefused(answer: LightMyRequestResponse, pointer: string) {
  expect(answer.statusCode, answer.body).toBe(400);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = answer.json();
  expect(problem.code).toBe('invalid_request');
  expect(problem.requestId).toBe(answer.headers['x-request-id']);
  expect(problem.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
}

const UNSTORABLE = [
  ['a NUL character', 'Ana\u0000Souza'],
  ['an unpaired high surrogate', 'Ana \ud800Souza'],
  ['an unpaired low surrogate', 'Ana \udc00Souza'],
] as const;

describe('stored text: no NUL characters, well-formed Unicode', () => {
  for (const [what, text] of UNSTORABLE) {
    it(`refuses a customer name with ${what} and stores nothing`, async () => {
      const before = await tenantCustomers();
      expectRefused(await sandbox.post('/customers', individualBody({ name: text })), '/body/name');
      expectRefused(
        await sandbox.post('/customers', individualBody({ taxId: `X${text}`, country: 'USA' })),
        '/body/taxId',
      );
      expect(await tenantCustomers()).toBe(before);
    });

    it(`refuses a bank account address with ${what}`, async () => {
      const answer = await sandbox.post('/bank-accounts', {
        customerId,
        name: 'Conta',
        rail: 'PIX',
        currency: 'BRL',
        identifier: { keyType: 'EMAIL', keyValue: 'ana@example.com' },
        holder: {
          type: 'INDIVIDUAL',
          relationship: 'SELF',
          legalName: 'Ana Souza',
          address: { line1: text, city: 'São Paulo', country: 'BRA' },
        },
      });
      expectRefused(answer, '/body/holder/address/line1');
    });

    it(`refuses operator names and audit-log filters with ${what}`, async () => {
      const before = await projectsNamedAna();
      expectRefused(await operator.post('/operator/projects', { name: text }), '/body/name');
      expect(await projectsNamedAna()).toBe(before);
      expectRefused(await operator.post('/operator/operators', { name: text }), '/body/name');
    });
  }

  it('refuses a NUL character in an operator query filter', async () => {
    expectRefused(await operator.get('/operator/audit-log?action=a%00b'), '/query/action');
    expectRefused(await operator.get('/operator/audit-log?resourceType=%00'), '/query/resourceType');
  });

  it('refuses an object key that cannot be stored', async () => {
    const answer = await sandbox.post('/customers', { ...individualBody(), 'x\u0000': 1 });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('accepts well-formed text beyond the Basic Multilingual Plane', async () => {
    const answer = await sandbox.post('/customers', individualBody({ name: 'Ana 😀 Souza' }));
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().name).toBe('Ana 😀 Souza');
  });
});

describe('page numbers', () => {
  const HUGE = '99999999999999999999';
  for (const param of ['page', 'cursor']) {
    it(`refuses ${param}=${HUGE} on public and operator lists`, async () => {
      expectRefused(await sandbox.get(`/customers?${param}=${HUGE}`), `/query/${param}`);
      expectRefused(await sandbox.get(`/webhook-endpoints?${param}=${HUGE}`), `/query/${param}`);
      expectRefused(await operator.get(`/operator/verifications?${param}=${HUGE}`), `/query/${param}`);
      expectRefused(await operator.get(`/operator/audit-log?${param}=${HUGE}`), `/query/${param}`);
    });
  }

  it('still serves the highest page number accepted', async () => {
    const answer = await sandbox.get('/customers?page=1000000');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toEqual([]);
  });
});

describe('UUIDs: the canonical form only', () => {
  const forms = (id: string) => [`urn:uuid:${id}`, `{${id}}`];

  it('refuses URN and braced UUIDs in path ids, queries and bodies', async () => {
    for (const id of forms(customerId)) {
      expectRefused(await sandbox.get(`/customers/${encodeURIComponent(id)}`), '/path/id');
      expectRefused(
        await sandbox.get(`/transactions?customerId=${encodeURIComponent(id)}`),
        '/query/customerId',
      );
      expectRefused(
        await sandbox.post(`/customers/${encodeURIComponent(id)}/limit-requests`, {
          requested: { single: '1.00', daily: '1.00', monthly: '1.00' },
        }),
        '/path/id',
      );
      expectRefused(
        await sandbox.post('/transactions/on-ramp', {
          customerId: id,
          currency: 'BRL',
          amount: '10.00',
          targetCurrency: 'USDC',
        }),
        '/body/customerId',
      );
      expectRefused(await operator.get(`/operator/verifications/${encodeURIComponent(id)}`), '/path/id');
      expectRefused(
        await operator.get(`/operator/audit-log?resourceId=${encodeURIComponent(id)}`),
        '/query/resourceId',
      );
    }
  });

  it('accepts the canonical form in capitals', async () => {
    const answer = await sandbox.get(`/customers/${customerId.toUpperCase()}`);
    expect(answer.statusCode, answer.body).toBe(200);
  });
});

describe('dates within the years 0001-9999', () => {
  it('refuses year 0000 in birthDate, incorporationDate and holder.incorporationDate', async () => {
    const before = await tenantCustomers();
    expectRefused(
      await sandbox.post('/customers', individualBody({ birthDate: '0000-01-01' })),
      '/body/birthDate',
    );
    expectRefused(
      await sandbox.post('/customers', businessBody({ incorporationDate: '0000-02-29' })),
      '/body/incorporationDate',
    );
    expect(await tenantCustomers()).toBe(before);
    const answer = await sandbox.post('/bank-accounts', {
      customerId,
      name: 'Conta',
      rail: 'PIX',
      currency: 'BRL',
      identifier: { keyType: 'EMAIL', keyValue: 'loja@example.com' },
      holder: {
        type: 'BUSINESS',
        relationship: 'THIRD_PARTY',
        legalName: 'Loja',
        incorporationDate: '0000-06-01',
      },
    });
    expectRefused(answer, '/body/holder/incorporationDate');
  });

  it('accepts year 0001', async () => {
    const answer = await sandbox.post('/customers', individualBody({ birthDate: '0001-01-01' }));
    expect(answer.statusCode).not.toBe(500);
    expect(answer.headers['content-type']).toMatch(/json/);
  });
});

const pix = (fields: Record<string, string>) => ({
  endToEndId: 'E1234567820250101120000000000099',
  txid: 'abc123',
  valor: '10.00',
  horario: '2025-01-01T12:00:00Z',
  ...fields,
});

function notify(payment: Record<string, string>) {
  return server.production.inject({
    method: 'POST',
    url: `${new URL(WEBHOOK_URL).pathname}/pix`,
    payload: JSON.stringify({ pix: [pix(payment)] }),
    headers: { 'content-type': 'application/json' },
  });
}

describe('PIX reported by the PSP', () => {
  // a notification is a hint; what is booked is the PSP's own answer, read field by field: a PIX that
  // cannot be stored is not one
  it('reads a PIX of zero as no PIX', () => {
    expect(readPix(pix({}))).not.toBeNull();
    expect(readPix(pix({ valor: '0.00' }))).toBeNull();
  });

  it('reads instants outside the years 0001-9999 and leap seconds no clock can name as no PIX', () => {
    for (const horario of [
      '0000-12-31T23:00:00Z',
      '2024-12-31T23:59:60Z',
      '0001-01-01T00:30:00+01:00',
      'now',
    ]) {
      expect(readPix(pix({ horario }))).toBeNull();
    }
  });

  it('refuses a notification field carrying a NUL character at the boundary', async () => {
    expectRefused(await notify({ infoPagador: 'a\u0000b' }), '/body/pix/0/infoPagador');
  });
});

describe('paths and bodies the router sees first', () => {
  it('answers a path parameter over 100 characters as a problem with a request id', async () => {
    for (const app of [server.sandbox, server.operator]) {
      const url = app === server.sandbox ? '/customers/' : '/operator/verifications/';
      const answer = await app.inject({
        method: 'GET',
        url: `${url}${'a'.repeat(150)}`,
        headers: {
          authorization: `Bearer ${app === server.sandbox ? tenant.sandboxKey : server.operatorToken}`,
        },
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.headers['x-request-id']).toBeTruthy();
      expect(answer.json().requestId).toBe(answer.headers['x-request-id']);
    }
  });

  it('accepts a DELETE with Content-Type: application/json and no body', async () => {
    const created = await sandbox.post('/webhook-endpoints', {
      url: 'https://93.184.215.14/hooks',
      events: ['customer.created'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const answer = await sandbox.delete(`/webhook-endpoints/${created.json().id}`, {
      'content-type': 'application/json',
    });
    expect(answer.statusCode, answer.body).toBeLessThan(300);
  });

  it('still refuses a POST announcing JSON without a body', async () => {
    const answer = await sandbox.post('/customers', undefined, { 'content-type': 'application/json' });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
