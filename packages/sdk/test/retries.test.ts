import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { validCpf } from '../../../test/helpers/factories.ts';
import { usingPostgres } from '../../../test/helpers/server.ts';
import { startTcpProxy, type TcpProxy } from '../../../test/ops/tcp-proxy.ts';
import { Ponte, PonteApiError, PonteConnectionError } from '../src/index.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { recordingFetch, type SdkServer, STARTUP_TIMEOUT_MS, startSdkServer } from './support.ts';

const customerBody = (taxId: string) => ({
  type: 'INDIVIDUAL' as const,
  name: 'Ana Souza',
  taxId,
  country: 'BRA',
  email: 'ana@example.com',
});

/** How many customers of the tenant have this taxId, read through the API. */
async function customersWithTaxId(server: SdkServer, taxId: string) {
  let count = 0;
  for await (const customer of server.ponte().customers.list({ limit: 50 })) {
    if (customer.taxId === taxId) count += 1;
  }
  return count;
}

describe('retries against the real service', () => {
  let server: SdkServer;
  let proxy: FaultProxy;

  beforeAll(async () => {
    server = await startSdkServer({ workers: false });
  }, STARTUP_TIMEOUT_MS);
  // A proxy of its own per test: the faults apply to its first connections, which no earlier test reuses.
  beforeEach(async () => {
    proxy = await startFaultProxy(new URL(server.url));
  });
  afterEach(() => proxy.close());
  afterAll(() => server?.close());

  it('retries a POST whose connection is reset after the server processed it, with the same Idempotency-Key, creating one customer', async () => {
    const recorder = recordingFetch();
    const ponte = server.ponte({ baseUrl: proxy.url, fetch: recorder.fetch });
    const taxId = validCpf('1');
    proxy.failNext('reset-after-processing');
    const customer = await ponte.customers.create(customerBody(taxId));
    expect(customer.taxId).toBe(taxId);
    expect(recorder.sent).toHaveLength(2);
    const keys = recorder.sent.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    // the first attempt created the customer; the retry got the stored answer back
    expect(recorder.sent[0]?.answer).toBeUndefined();
    expect(recorder.sent[1]?.answer?.headers.get('idempotent-replayed')).toBe('true');
    expect(await customersWithTaxId(server, taxId)).toBe(1);
  });

  it('retries a 503 from in front of the service, with the same Idempotency-Key', async () => {
    const recorder = recordingFetch();
    const ponte = server.ponte({ baseUrl: proxy.url, fetch: recorder.fetch });
    const taxId = validCpf('1');
    proxy.failNext('gateway-503', 'gateway-503');
    await ponte.customers.create(customerBody(taxId), { idempotencyKey: 'order-7731' });
    expect(recorder.sent.map((request) => request.headers.get('idempotency-key'))).toEqual([
      'order-7731',
      'order-7731',
      'order-7731',
    ]);
    expect(await customersWithTaxId(server, taxId)).toBe(1);
  });

  it('gives up after maxRetries with a PonteConnectionError', async () => {
    const recorder = recordingFetch();
    const ponte = server.ponte({ baseUrl: proxy.url, fetch: recorder.fetch, maxRetries: 1 });
    proxy.failNext('reset-after-processing', 'reset-after-processing');
    const error = await ponte.customers.list().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PonteConnectionError);
    expect(recorder.sent).toHaveLength(2);
  });
});

describe.runIf(usingPostgres())('a database outage behind the service', () => {
  let server: SdkServer;
  let database: TcpProxy;

  beforeAll(async () => {
    const target = new URL(inject('testDatabaseUrl')!);
    database = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(target);
    proxied.host = `127.0.0.1:${database.port}`;
    server = await startSdkServer({ workers: false, env: { DATABASE_URL: proxied.toString() } });
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it('retries the 503 service_unavailable the service answers, after its Retry-After, and creates one customer', async () => {
    const statuses: number[] = [];
    const keys: (string | null)[] = [];
    const observing: typeof fetch = async (input, init) => {
      keys.push(new Headers(init?.headers).get('idempotency-key'));
      const response = await fetch(input, init);
      statuses.push(response.status);
      if (response.status === 503) database.restore();
      return response;
    };
    const ponte = server.ponte({ fetch: observing });
    const taxId = validCpf('1');
    database.cut();
    const customer = await ponte.customers.create(customerBody(taxId));
    expect(statuses).toEqual([503, 201]);
    expect(keys[1]).toBe(keys[0]);
    expect(customer.taxId).toBe(taxId);
    expect(await customersWithTaxId(server, taxId)).toBe(1);
  });
});

describe('429 from the real rate limiter', () => {
  let server: SdkServer;

  beforeAll(async () => {
    server = await startSdkServer({
      workers: false,
      env: { PONTE_RATE_LIMIT_PER_SECOND: '1', PONTE_RATE_LIMIT_BURST: '1' },
    });
  }, STARTUP_TIMEOUT_MS);
  afterAll(() => server?.close());

  it('waits the Retry-After the service sends, then retries', async () => {
    // three calls at once against a burst of one: the refused ones wait Retry-After and then succeed
    const calls = [0, 1, 2].map(() => {
      const recorder = recordingFetch();
      const at: number[] = [];
      const timed: typeof fetch = (input, init) => {
        at.push(Date.now());
        return recorder.fetch(input, init);
      };
      return { recorder, at, ponte: server.ponte({ fetch: timed, maxRetries: 5 }) };
    });
    await Promise.all(calls.map((call) => call.ponte.customers.list()));
    const limited = calls.filter((call) => call.recorder.sent[0]?.answer?.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const call of limited) {
      expect(call.recorder.sent[0]?.answer?.headers.get('retry-after')).toBe('1');
      expect(call.at[1]! - call.at[0]!).toBeGreaterThanOrEqual(1000);
      expect(call.recorder.sent.at(-1)?.answer?.status).toBe(200);
    }
  });

  it('surfaces the 429 as PonteApiError rate_limited once the retries are spent', async () => {
    const ponte = server.ponte({ maxRetries: 0 });
    await ponte.customers.list().catch(() => undefined);
    const error = await ponte.customers.list().then(
      () => null,
      (caught: unknown) => caught as PonteApiError,
    );
    expect(error).toBeInstanceOf(PonteApiError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
  });
});

describe('a server that never answers', () => {
  let silent: Server;
  let url: string;
  let connections = 0;

  beforeAll(async () => {
    silent = createServer(() => {
      connections += 1;
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  }, STARTUP_TIMEOUT_MS);
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        silent.closeAllConnections();
        silent.close(() => resolve());
      }),
  );

  it('times each attempt out, retries, then fails with PonteConnectionError (timedOut)', async () => {
    const ponte = new Ponte({
      apiKey: `sk_sandbox_${'a'.repeat(38)}`,
      baseUrl: url,
      timeoutMs: 150,
      maxRetries: 1,
    });
    const error = await ponte.customers.list().then(
      () => null,
      (caught: unknown) => caught as PonteConnectionError,
    );
    expect(error).toBeInstanceOf(PonteConnectionError);
    expect(error?.timedOut).toBe(true);
    expect(connections).toBe(2);
    expect(error?.message).toBe(`GET /customers: no answer from ${url} within 150 ms (2 attempts)`);
  });
});

describe('a server that cannot be reached', () => {
  it('names the base URL it tried and the cause', async () => {
    // a port nothing listens on: a server bound, then closed
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const baseUrl = `http://127.0.0.1:${port}`;
    const ponte = new Ponte({ apiKey: `sk_sandbox_${'a'.repeat(38)}`, baseUrl, maxRetries: 0 });
    const error = await ponte.customers.list().then(
      () => null,
      (caught: unknown) => caught as PonteConnectionError,
    );
    expect(error).toBeInstanceOf(PonteConnectionError);
    expect(error?.timedOut).toBe(false);
    expect(error?.message).toBe(
      `GET /customers: could not reach ${baseUrl} (connect ECONNREFUSED 127.0.0.1:${port}; 1 attempt)`,
    );
  });
});
