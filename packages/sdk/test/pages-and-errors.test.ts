import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validCpf } from '../../../test/helpers/factories.ts';
import { Page, Ponte, PonteApiError } from '../src/index.ts';
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
