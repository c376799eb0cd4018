import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { validCpf } from '../../../test/helpers/factories.ts';
import { type Customer, Page, Ponte, PonteApiError, type ProblemBody } from '../src/index.ts';
import { recordingFetch, type SdkServer, STARTUP_TIMEOUT_MS, startSdkServer } from './support.ts';

/** The PonteApiError a call fails with; fails the test when the call succeeds or fails otherwise. */
async function failure(call: PromiseLike<unknown>): Promise<PonteApiError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(PonteApiError);
    return error as PonteApiError;
  }
  throw new Error('expected the call to fail');
}

let server: SdkServer;
let ponte: Ponte;
const created: string[] = [];

beforeAll(async () => {
  server = await startSdkServer();
  ponte = server.ponte();
  for (let i = 0; i < 7; i++) {
    const customer = await ponte.customers.create({
      type: 'INDIVIDUAL',
      name: `Cliente ${i}`,
      taxId: validCpf('1'),
      country: 'BRA',
      email: `cliente${i}@example.com`,
    });
    created.push(customer.id);
  }
}, STARTUP_TIMEOUT_MS);
afterAll(() => server?.close());

describe('list() pages', () => {
  it('iterates every item of every page with for await, over more than two pages', async () => {
    const recorder = recordingFetch();
    const client = server.ponte({ fetch: recorder.fetch });
    const seen: string[] = [];
    for await (const customer of client.customers.list({ limit: 2 })) seen.push(customer.id);
    expect(seen).toEqual([...created].reverse());
    // by keyset: empty to begin, then each answer's nextCursor
    const queries = recorder.sent.map((request) => new URL(request.url).searchParams);
    expect(queries).toHaveLength(4);
    expect(queries.map((query) => query.get('limit'))).toEqual(['2', '2', '2', '2']);
    expect(queries[0]!.get('startingAfter')).toBe('');
    for (const query of queries.slice(1)) expect(query.get('startingAfter')).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(queries.some((query) => query.has('cursor') || query.has('page'))).toBe(false);
  });

  it('answers a page with its data and pagination, and walks to the next page by hand', async () => {
    const first = await ponte.customers.list({ limit: 3 });
    expect(first).toBeInstanceOf(Page);
    expect(first.data).toHaveLength(3);
    expect(first.pagination).toMatchObject({
      size: 3,
      total: 7,
      hasNextPage: true,
      page: 1,
      // a list asked for without a page number walks by keyset: the cursor is opaque
      nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
    });
    const second = await first.nextPage();
    const third = await second?.nextPage();
    expect(third?.data).toHaveLength(1);
    expect(third?.hasNextPage()).toBe(false);
    expect(await third?.nextPage()).toBeNull();
  });

  it('iterates from a later page on when started from one', async () => {
    const second = await ponte.customers.list({ limit: 3, page: 2 });
    const rest: string[] = [];
    for await (const customer of second) rest.push(customer.id);
    expect(rest).toEqual([...created].reverse().slice(3));
  });
});

describe('problems', () => {
  it('surfaces a 404 as PonteApiError with its problem body, sent exactly once', async () => {
    const recorder = recordingFetch();
    const client = server.ponte({ fetch: recorder.fetch, maxRetries: 3 });
    const missing = '00000000-0000-4000-8000-000000000000';
    const problem = await failure(client.customers.retrieve(missing));
    expect(problem.status).toBe(404);
    expect(problem.code).toBe('not_found');
    expect(problem.requestId).toEqual(expect.any(String));
    expect(problem.body).toMatchObject({ status: 404, code: 'not_found', requestId: problem.requestId });
    expect(recorder.sent).toHaveLength(1);
  });

  it('surfaces a 400 with the pointer of each invalid field, sent exactly once', async () => {
    const recorder = recordingFetch();
    const client = server.ponte({ fetch: recorder.fetch, maxRetries: 3 });
    const error = await failure(
      client.customers.create({
        type: 'INDIVIDUAL',
        name: 'X',
        taxId: '123',
        country: 'BRA',
        email: 'not-an-email',
      }),
    );
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(error.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ pointer: expect.stringMatching(/^\/body\//) })]),
    );
    expect(recorder.sent).toHaveLength(1);
  });

  it("types a problem's own fields by its code: customer_exists names the customer that holds the taxId", async () => {
    const taxId = validCpf('4');
    const first = await ponte.customers.create({
      type: 'INDIVIDUAL',
      name: 'Primeira',
      taxId,
      country: 'BRA',
      email: 'primeira@example.com',
    });
    const error = await failure(
      ponte.customers.create({
        type: 'INDIVIDUAL',
        name: 'Segunda',
        taxId,
        country: 'BRA',
        email: 'segunda@example.com',
      }),
    );
    expect(error.status).toBe(409);
    expect(error.is('customer_exists')).toBe(true);
    expect(error.is('not_found')).toBe(false);
    if (!error.is('customer_exists')) throw new Error('expected customer_exists');
    expectTypeOf(error.body.customerId).toEqualTypeOf<string | undefined>();
    expect(error.body.customerId).toBe(first.id);
    // narrowing the body by its code works as well
    const body: ProblemBody = error.body;
    if (body.code === 'limit_exceeded') {
      expectTypeOf(body.limit).toEqualTypeOf<'single' | 'daily' | 'monthly'>();
      expectTypeOf(body.remaining).toEqualTypeOf<string>();
    }
    if (body.code === 'compliance_hold') expectTypeOf(body.subjectType).toEqualTypeOf<string>();
  });

  it('types what every customer answer carries as required: requirements, tosAcceptedAt, metadata', async () => {
    const customer = await ponte.customers.retrieve(created[0]!);
    expectTypeOf<Customer['requirements']>().not.toEqualTypeOf<Customer['requirements'] | undefined>();
    expectTypeOf<Customer['tosAcceptedAt']>().toEqualTypeOf<string | null>();
    expectTypeOf<Customer['metadata']>().not.toEqualTypeOf<Customer['metadata'] | undefined>();
    expect(Array.isArray(customer.requirements)).toBe(true);
    expect(customer).toHaveProperty('tosAcceptedAt');
    expect(customer.metadata).toEqual({});
  });

  it('sends no body to the operations that take none (submit, refund), as the document declares', async () => {
    const recorder = recordingFetch();
    const client = server.ponte({ fetch: recorder.fetch, maxRetries: 0 });
    const customer = await client.customers.retrieve(created[0]!);
    await client.verifications.submit(customer.id, customer.verification.id).catch(() => undefined);
    await client.transactions.refund('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    const posts = recorder.sent.filter((request) => request.method === 'POST');
    expect(posts.map((request) => new URL(request.url).pathname.split('/').at(-1))).toEqual([
      'submit',
      'refund',
    ]);
    expect(posts.map((request) => request.headers.get('content-type'))).toEqual([null, null]);
  });

  it('surfaces a key of the other environment as a 401 environment_mismatch, not retried', async () => {
    const tenant = await server.newTenant('Other partner');
    const recorder = recordingFetch();
    const client = new Ponte({ apiKey: tenant.productionKey, baseUrl: server.url, fetch: recorder.fetch });
    const error = await failure(client.customers.list());
    expect(error.status).toBe(401);
    expect(error.code).toBe('environment_mismatch');
    expect(recorder.sent).toHaveLength(1);
  });
});
