import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approvedCustomer,
  type CustomerView,
  createCustomer,
  individualBody,
  validCpf,
} from '../helpers/factories.ts';
import {
  type Client,
  client,
  eventually,
  startTestServer,
  type TestServer,
  usingPostgres,
} from '../helpers/server.ts';
import { createdEventCount, eventsOf, rejectInDatabase, UNKNOWN_ID, uploadStatement } from './support.ts';

let server: TestServer;
let sandbox: Client;
let sandboxKey: string;
let production: Client;

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant();
  sandboxKey = tenant.sandboxKey;
  sandbox = client(server.sandbox, sandboxKey);
  production = client(server.production, tenant.productionKey);
});
afterAll(() => server.close());

const path = (customerId: string) => `/customers/${customerId}/limit-requests`;

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('POST /customers/{id}/limit-requests', () => {
  it('opens an IN_REVIEW request with every amount as a two-decimal string and approved all null', async () => {
    const customer = await approvedCustomer(sandbox);
    const response = await sandbox.post(path(customer.id), {
      requested: { single: '1500', daily: '3000.5', monthly: '9000.00' },
    });
    expect(response.statusCode).toBe(201);
    const request = response.json();
    expect(request).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      customerId: customer.id,
      requested: { single: '1500.00', daily: '3000.50', monthly: '9000.00' },
      approved: { single: null, daily: null, monthly: null },
      supportingDocumentType: null,
      supportingDocumentId: null,
      status: 'IN_REVIEW',
      reviewComment: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: request.createdAt,
    });
    const read = await sandbox.get(`${path(customer.id)}/${request.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(request);
  });

  it('records limit_request.created with the request as the API answers it', async () => {
    const customer = await approvedCustomer(sandbox);
    const request = (await sandbox.post(path(customer.id), { requested: { monthly: '20000.00' } })).json();
    expect(await eventsOf(server.ctx.db, request.id)).toEqual([
      { type: 'limit_request.created', resource_type: 'limit_request', data: request },
    ]);
  });

  it('answers the amounts not asked for as null', async () => {
    const customer = await approvedCustomer(sandbox);
    const response = await sandbox.post(path(customer.id), { requested: { daily: '25000.00' } });
    expect(response.statusCode).toBe(201);
    expect(response.json().requested).toEqual({ single: null, daily: '25000.00', monthly: null });
  });

  it('names a document uploaded for the customer as its supporting document', async () => {
    const customer = await approvedCustomer(sandbox);
    const documentId = await uploadStatement(server.sandbox, sandboxKey, customer.id);
    const response = await sandbox.post(path(customer.id), {
      requested: { single: '10000.00' },
      supportingDocumentType: 'LIMIT_REQUEST_BANK_STATEMENT',
      supportingDocumentId: documentId.toUpperCase(),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      supportingDocumentType: 'LIMIT_REQUEST_BANK_STATEMENT',
      supportingDocumentId: documentId,
    });
  });

  it('refuses a supporting document that is not one of this customer with 400, writing nothing', async () => {
    const customer = await approvedCustomer(sandbox);
    const otherCustomer = await approvedCustomer(sandbox);
    const othersDocument = await uploadStatement(server.sandbox, sandboxKey, otherCustomer.id);
    for (const documentId of [othersDocument, UNKNOWN_ID]) {
      const response = await sandbox.post(path(customer.id), {
        requested: { single: '10000.00' },
        supportingDocumentType: 'LIMIT_REQUEST_BANK_STATEMENT',
        supportingDocumentId: documentId,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        {
          pointer: '/body/supportingDocumentId',
          message: expect.stringMatching(/^must be the id of a document/),
        },
      ]);
    }
    expect((await sandbox.get(path(customer.id))).json().pagination.total).toBe(0);
    expect(await createdEventCount(server.ctx.db, customer.id)).toBe(0);
  });

  it('refuses a supporting document type without its id, an id without its type, and unknown values', async () => {
    const customer = await approvedCustomer(sandbox);
    const typeOnly = await sandbox.post(path(customer.id), {
      requested: { single: '10000.00' },
      supportingDocumentType: 'LIMIT_REQUEST_BANK_STATEMENT',
    });
    expect(typeOnly.statusCode).toBe(400);
    expect(typeOnly.json().errors).toEqual([
      { pointer: '/body/supportingDocumentId', message: 'is required with supportingDocumentType' },
    ]);
    const idOnly = await sandbox.post(path(customer.id), {
      requested: { single: '10000.00' },
      supportingDocumentId: await uploadStatement(server.sandbox, sandboxKey, customer.id),
    });
    expect(idOnly.json().errors).toEqual([
      { pointer: '/body/supportingDocumentType', message: 'is required with supportingDocumentId' },
    ]);
    const unknown = await sandbox.post(path(customer.id), {
      requested: { single: '10000.00' },
      supportingDocumentType: 'PAYSLIP',
      supportingDocumentId: 'not-a-uuid',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([
      { pointer: '/body/supportingDocumentType', message: 'must be one of LIMIT_REQUEST_BANK_STATEMENT' },
      { pointer: '/body/supportingDocumentId', message: 'must be a valid UUID' },
    ]);
    expect((await sandbox.get(path(customer.id))).json().pagination.total).toBe(0);
  });
});

describe('POST /customers/{id}/limit-requests: amounts', () => {
  let customer: CustomerView;
  beforeAll(async () => {
    customer = await approvedCustomer(sandbox);
  });

  const FORMAT = 'must be a positive amount with at most two decimals, such as "1500.00"';

  it.each([
    [
      'zero',
      { single: '0.00' },
      [{ pointer: '/body/requested/single', message: 'must be greater than zero' }],
    ],
    ['a negative amount', { daily: '-100.00' }, [{ pointer: '/body/requested/daily', message: FORMAT }]],
    ['three decimals', { monthly: '100.001' }, [{ pointer: '/body/requested/monthly', message: FORMAT }]],
    ['14 digits', { single: '12345678901234' }, [{ pointer: '/body/requested/single', message: FORMAT }]],
    [
      'a number instead of a string',
      { single: 1500 },
      [{ pointer: '/body/requested/single', message: 'must be string' }],
    ],
    [
      'single above daily',
      { single: '5000.00', daily: '4999.99' },
      [{ pointer: '/body/requested/single', message: 'must not be greater than the daily amount' }],
    ],
    [
      'daily above monthly',
      { daily: '5000.00', monthly: '1000.00' },
      [{ pointer: '/body/requested/daily', message: 'must not be greater than the monthly amount' }],
    ],
    [
      'no amount at all',
      {},
      [{ pointer: '/body/requested', message: 'must give at least one of single, daily, monthly' }],
    ],
    [
      'an unknown limit',
      { weekly: '10.00' },
      [{ pointer: '/body/requested/weekly', message: 'is not a known field' }],
    ],
  ])('refuses %s with 400 and a pointer, writing nothing', async (_name, requested, errors) => {
    const response = await sandbox.post(path(customer.id), { requested });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 400, code: 'invalid_request', errors });
    expect((await sandbox.get(path(customer.id))).json().pagination.total).toBe(0);
  });

  it('refuses a body without requested, and unknown fields', async () => {
    const response = await sandbox.post(path(customer.id), { single: '10.00' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { pointer: '/body/requested', message: 'is required' },
      { pointer: '/body/single', message: 'is not a known field' },
    ]);
  });

  it('wrote no request and no event for any refused body', async () => {
    expect((await sandbox.get(path(customer.id))).json().pagination.total).toBe(0);
    expect(await createdEventCount(server.ctx.db, customer.id)).toBe(0);
  });
});

describe('POST /customers/{id}/limit-requests: customer', () => {
  it('answers 404 for an unknown customer, another tenant’s and another environment’s', async () => {
    const body = { requested: { single: '100.00' } };
    const unknown = await sandbox.post(path(UNKNOWN_ID), body);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('not_found');

    const customer = await approvedCustomer(sandbox);
    const other = await server.newTenant('Other partner');
    const otherTenant = await client(server.sandbox, other.sandboxKey).post(path(customer.id), body);
    expect(otherTenant.statusCode).toBe(404);
    expect(otherTenant.json()).toMatchObject({ code: 'not_found', detail: unknown.json().detail });
    const otherEnvironment = await production.post(path(customer.id), body);
    expect(otherEnvironment.statusCode).toBe(404);
    expect((await sandbox.get(path(customer.id))).json().pagination.total).toBe(0);
  });

  it('answers 400 with a pointer for a malformed customer id', async () => {
    const response = await sandbox.post(path('123'), { requested: { single: '100.00' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ pointer: '/path/id', message: 'must be a valid UUID' }]);
  });

  it('refuses a production customer (verification NOT_STARTED) with 409 customer_not_approved', async () => {
    const customer = await createCustomer(production);
    const response = await production.post(path(customer.id), { requested: { single: '100.00' } });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'customer_not_approved', status: 409 });
    expect((await production.get(path(customer.id))).json().pagination.total).toBe(0);
  });

  it('refuses a sandbox customer in FINAL_REJECTION (taxId ending in 3) with 409 customer_not_approved', async () => {
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf('3') }));
    await eventually(
      () => sandbox.get(`/customers/${customer.id}`).then((r) => r.json()),
      (c) => c.verification.status === 'FINAL_REJECTION',
    );
    const response = await sandbox.post(path(customer.id), { requested: { single: '100.00' } });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('customer_not_approved');
  });

  it('refuses a sandbox customer in TEMPORARY_REJECTION (taxId ending in 2) with 409 customer_not_approved', async () => {
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf('2') }));
    await eventually(
      () => sandbox.get(`/customers/${customer.id}`).then((r) => r.json()),
      (c) => c.verification.status === 'TEMPORARY_REJECTION',
    );
    const response = await sandbox.post(path(customer.id), { requested: { single: '100.00' } });
    expect(response.json().code).toBe('customer_not_approved');
  });
});

describe('POST /customers/{id}/limit-requests: one in review at a time', () => {
  it('refuses a second request while one is IN_REVIEW with 409 limit_request_in_review', async () => {
    const customer = await approvedCustomer(sandbox);
    const first = await sandbox.post(path(customer.id), { requested: { single: '100.00' } });
    expect(first.statusCode).toBe(201);
    const second = await sandbox.post(path(customer.id), { requested: { daily: '200.00' } });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'limit_request_in_review', status: 409 });
    expect(await createdEventCount(server.ctx.db, customer.id)).toBe(1);
    const list = (await sandbox.get(path(customer.id))).json();
    expect(list.data.map((r: { id: string }) => r.id)).toEqual([first.json().id]);
  });

  it('replays the first answer to a retry with the same Idempotency-Key instead of refusing it', async () => {
    const customer = await approvedCustomer(sandbox);
    const body = { requested: { single: '700.00' } };
    const headers = { 'idempotency-key': `limit-${customer.id}` };
    const first = await sandbox.post(path(customer.id), body, headers);
    expect(first.statusCode).toBe(201);
    const retry = await sandbox.post(path(customer.id), body, headers);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await createdEventCount(server.ctx.db, customer.id)).toBe(1);
  });

  it('accepts a new request once the previous one has been reviewed', async () => {
    const customer = await approvedCustomer(sandbox);
    const first = (await sandbox.post(path(customer.id), { requested: { single: '100.00' } })).json();
    await rejectInDatabase(server.ctx.db, first.id);
    const second = await sandbox.post(path(customer.id), { requested: { single: '50.00' } });
    expect(second.statusCode).toBe(201);
    expect(second.json().status).toBe('IN_REVIEW');
  });

  it('lets exactly one of 10 concurrent requests through; the others answer 409', async () => {
    const customer = await approvedCustomer(sandbox);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        sandbox.post(path(customer.id), { requested: { single: `${100 + i}.00` } }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(refused.json().code).toBe('limit_request_in_review');
    }
    const created = answers.find((a) => a.statusCode === 201)!.json();
    const list = (await sandbox.get(path(customer.id))).json();
    expect(list.data).toEqual([created]);
    expect(list.pagination.total).toBe(1);
    expect(await createdEventCount(server.ctx.db, customer.id)).toBe(1);
  });
});

describe.runIf(usingPostgres())('POST /customers/{id}/limit-requests on two server processes', () => {
  it('lets exactly one of 10 requests spread over two processes through', async () => {
    const second = await startTestServer({ workers: false });
    try {
      const customer = await approvedCustomer(sandbox);
      const secondSandbox = client(second.sandbox, sandboxKey);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? sandbox : secondSandbox).post(path(customer.id), {
            requested: { daily: `${500 + i}.00` },
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([
        201, 409, 409, 409, 409, 409, 409, 409, 409, 409,
      ]);
      expect((await sandbox.get(path(customer.id))).json().pagination.total).toBe(1);
      expect(await createdEventCount(server.ctx.db, customer.id)).toBe(1);
    } finally {
      await second.close();
    }
  });
});
