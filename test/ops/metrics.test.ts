import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutboxDepth } from '../../src/http/metrics-repo.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  api = client(server.production, (await server.newTenant()).productionKey);
});
afterAll(() => server.close());

const scrape = async () => {
  const answer = await server.operator.inject({ method: 'GET', url: '/metrics' });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^text\/plain/);
  return answer.body;
};

/** The value of one sample line, e.g. `name{labels} 3`. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics on the operator listener', () => {
  it('counts requests per surface, method, route pattern and status, with latency histograms', async () => {
    const labels = 'surface="production",method="POST",route="/customers",status="201"';
    const before = sample(await scrape(), 'ponte_http_requests_total', labels) ?? 0;
    const created = await api.post('/customers', individualBody());
    expect(created.statusCode).toBe(201);
    await api.get(`/customers/${created.json().id}`);
    const text = await scrape();
    expect(sample(text, 'ponte_http_requests_total', labels)).toBe(before + 1);
    expect(
      sample(text, 'ponte_http_requests_total', 'method="GET",route="/customers/:id",status="200"'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'ponte_http_request_duration_seconds_count', labels)).toBe(before + 1);
    expect(text).toMatch(/ponte_http_request_duration_seconds_bucket\{le="0.005",.*route="\/customers"/);
  });

  it('labels unknown paths as one "unmatched" route', async () => {
    // the registry is the process's: other test files of this worker may have counted before
    const labels = 'surface="production",method="GET",route="unmatched",status="404"';
    const before = sample(await scrape(), 'ponte_http_requests_total', labels) ?? 0;
    await api.get('/no/such/path/123');
    await api.get('/no/such/path/456');
    const text = await scrape();
    expect(text).not.toContain('/no/such/path');
    expect(sample(text, 'ponte_http_requests_total', labels)).toBe(before + 2);
  });

  it('reports the outbox depth, delivery attempts and rate-limited requests', async () => {
    const depth = await readOutboxDepth(server.ctx.db);
    await api.post('/customers', individualBody());
    const text = await scrape();
    const reported = Number(/^ponte_outbox_depth (\d+)$/m.exec(text)?.[1]);
    // Without workers nothing is delivered here; on a shared database other files' workers may be.
    if (usingPostgres()) expect(reported).toBeGreaterThanOrEqual(0);
    else expect(reported).toBe(depth + 1);
    // the counter itself is exercised by real deliveries in test/webhooks/delivery.test.ts
    expect(text).toMatch(/^# TYPE ponte_webhook_delivery_attempts_total counter$/m);
    expect(text).toMatch(/^# TYPE ponte_rate_limited_total counter$/m);
    expect(text).toMatch(/^ponte_process_cpu_seconds_total /m);
  });

  it('is served on the operator listener only', async () => {
    const answer = await server.production.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(404);
  });
});
