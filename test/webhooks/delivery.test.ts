import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_VERSION } from '../../src/core/api-version.ts';
import { metrics } from '../../src/http/metrics.ts';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, type TestServer } from '../helpers/server.ts';
import {
  createEndpoint,
  deliveries,
  deliveriesWhere,
  type Receiver,
  STARTUP_TIMEOUT_MS,
  startReceiver,
  startWebhookServer,
  waitFor,
} from './support.ts';

let server: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // Retries a few milliseconds apart, so failing receivers recover within the test.
  server = await startWebhookServer({
    env: { PONTE_WEBHOOK_RETRY_BASE_MS: '20', PONTE_WEBHOOK_RETRY_MAX_DELAY_MS: '100' },
  });
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  await server.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(respond?: Receiver['respond']) {
  const started = await startReceiver(respond);
  receivers.push(started);
  return started;
}

async function partner(): Promise<Client> {
  return client(server.sandbox, (await server.newTenant()).sandboxKey);
}

async function attemptCounts() {
  const { values } = await metrics.deliveryAttempts.get();
  const count = (outcome: string) => values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  return { delivered: count('delivered'), failed: count('failed') };
}

/** A sandbox customer whose verification stays NOT_STARTED: exactly one event, customer.created. */
const quietCustomer = (api: Client) => createCustomer(api, individualBody({ taxId: validCpf('1') }));

describe('webhook delivery', () => {
  it('POSTs {eventId, eventType, createdAt, environment, apiVersion, data} signed so that Webhook.verify accepts it', async () => {
    const api = await partner();
    const hooks = await receiver();
    const endpoint = await createEndpoint(api, { url: hooks.url });
    const customer = await quietCustomer(api);
    const [delivery] = await deliveriesWhere(api, endpoint.id, 1, (d) => d.status === 'DELIVERED');
    expect(hooks.received).toHaveLength(1);
    const request = hooks.received[0]!;
    expect(request.headers['content-type']).toBe('application/json');
    const payload = new Webhook(endpoint.secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    expect(payload).toEqual({
      eventId: delivery!.eventId,
      eventType: 'customer.created',
      createdAt: customer.createdAt,
      environment: 'sandbox',
      apiVersion: DEFAULT_API_VERSION,
      data: customer,
    });
    expect(request.headers['webhook-id']).toBe(delivery!.eventId);
    expect(delivery!.attempts).toEqual([
      { at: expect.any(String), statusCode: 200, latencyMs: expect.any(Number), error: null },
    ]);
    expect(delivery!.nextAttemptAt).toBeNull();
    // a signature made with another secret does not verify
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }),
    ).toThrow();
  });

  it('loses nothing when the receiver answers 500 at first; repeats are redeliveries with the same webhook-id', async () => {
    const api = await partner();
    const hooks = await receiver((_request, index) => (index < 6 ? 500 : 200));
    const endpoint = await createEndpoint(api, { url: hooks.url });
    const attemptsBefore = await attemptCounts();
    const customers = await Promise.all(Array.from({ length: 4 }, () => quietCustomer(api)));
    const list = await deliveriesWhere(api, endpoint.id, 4, (d) => d.status === 'DELIVERED');

    const eventIds = list.map((d) => d.eventId).sort();
    const delivered = hooks.received.filter((r) => r.status === 200);
    expect(delivered.map((r) => r.headers['webhook-id']).sort()).toEqual(eventIds);
    expect(delivered.map((r) => r.json.data.id).sort()).toEqual(customers.map((c) => c.id).sort());
    for (const request of hooks.received) expect(eventIds).toContain(request.headers['webhook-id']);
    for (const d of list) {
      const sent = hooks.received.filter((r) => r.headers['webhook-id'] === d.eventId);
      expect(sent.map((r) => r.status)).toEqual(d.attempts.map((a) => a.statusCode));
      expect(sent.every((r) => r.body === sent[0]!.body)).toBe(true);
    }
    expect(hooks.received.filter((r) => r.status === 500)).toHaveLength(6);
    // every attempt is counted in the ponte_webhook_delivery_attempts_total metric, by outcome
    const attemptsAfter = await attemptCounts();
    expect(attemptsAfter.failed - attemptsBefore.failed).toBeGreaterThanOrEqual(6);
    expect(attemptsAfter.delivered - attemptsBefore.delivered).toBeGreaterThanOrEqual(4);
  });

  it('delivers the events of one resource in order, even when the first one fails and is retried', async () => {
    const api = await partner();
    let failuresLeft = 3;
    const hooks = await receiver((request) => {
      if (request.json.data.status === 'UNDER_VERIFICATION' && failuresLeft > 0) {
        failuresLeft--;
        return 503;
      }
      return 200;
    });
    const endpoint = await createEndpoint(api, {
      url: hooks.url,
      events: ['customer.verification.updated'],
    });
    // taxId ending in 5: the sandbox moves the verification to UNDER_VERIFICATION, then APPROVED
    await createCustomer(api, individualBody({ taxId: validCpf('5') }));
    const list = await deliveriesWhere(api, endpoint.id, 2, (d) => d.status === 'DELIVERED');
    const statuses = hooks.received.map((r) => `${r.json.data.status}:${r.status}`);
    expect(statuses).toEqual([
      'UNDER_VERIFICATION:503',
      'UNDER_VERIFICATION:503',
      'UNDER_VERIFICATION:503',
      'UNDER_VERIFICATION:200',
      'APPROVED:200',
    ]);
    const first = list.find((d) => d.attempts.length === 4)!;
    expect(first.attempts.map((a) => a.statusCode)).toEqual([503, 503, 503, 200]);
  });

  it('sends each endpoint only the event types it subscribed to', async () => {
    const api = await partner();
    const all = await receiver();
    const verificationsOnly = await receiver();
    const everything = await createEndpoint(api, { url: all.url });
    const filtered = await createEndpoint(api, {
      url: verificationsOnly.url,
      events: ['customer.verification.updated'],
    });
    await createCustomer(api, individualBody({ taxId: validCpf('5') }));
    await deliveriesWhere(api, everything.id, 3, (d) => d.status === 'DELIVERED');
    await deliveriesWhere(api, filtered.id, 2, (d) => d.status === 'DELIVERED');
    expect(all.received.map((r) => r.json.eventType)).toEqual([
      'customer.created',
      'customer.verification.updated',
      'customer.verification.updated',
    ]);
    expect(verificationsOnly.received.map((r) => r.json.eventType)).toEqual([
      'customer.verification.updated',
      'customer.verification.updated',
    ]);
  });

  it('keeps its connection to an endpoint alive from one delivery to the next', async () => {
    const api = await partner();
    const hooks = await receiver();
    const endpoint = await createEndpoint(api, { url: hooks.url, events: ['customer.created'] });
    for (let delivered = 1; delivered <= 4; delivered++) {
      await createCustomer(api, individualBody());
      await deliveriesWhere(api, endpoint.id, delivered, (d) => d.status === 'DELIVERED');
    }
    expect(hooks.received).toHaveLength(4);
    expect(hooks.connections).toBe(1);
  });

  it('sends nothing to another project, and nothing from before the endpoint existed', async () => {
    const api = await partner();
    const earlier = await quietCustomer(api);
    const hooks = await receiver();
    const endpoint = await createEndpoint(api, { url: hooks.url });
    const neighbour = await partner();
    const neighbourHooks = await receiver();
    const neighbourEndpoint = await createEndpoint(neighbour, { url: neighbourHooks.url });
    const later = await quietCustomer(api);
    await deliveriesWhere(api, endpoint.id, 1, (d) => d.status === 'DELIVERED');
    expect(hooks.received.map((r) => r.json.data.id)).toEqual([later.id]);
    expect(hooks.received.map((r) => r.json.data.id)).not.toContain(earlier.id);
    expect(await deliveries(neighbour, neighbourEndpoint.id)).toEqual([]);
    expect(neighbourHooks.received).toEqual([]);
  });

  it('lists deliveries newest first, paged and filtered by status', async () => {
    const api = await partner();
    const hooks = await receiver((request) => (request.json.data.email === 'fail@example.com' ? 500 : 200));
    const endpoint = await createEndpoint(api, { url: hooks.url });
    await quietCustomer(api);
    await createCustomer(api, individualBody({ taxId: validCpf('1'), email: 'fail@example.com' }));
    await waitFor(
      () => deliveries(api, endpoint.id),
      (list) => list.length === 2 && list.some((d) => d.status === 'DELIVERED'),
    );
    const page = (await api.get(`/webhook-endpoints/${endpoint.id}/deliveries?limit=1`)).json();
    expect(page.pagination).toEqual({ size: 1, total: 2, hasNextPage: true, page: 1, nextCursor: '2' });
    expect(page.data[0].status).toBe('PENDING');
    const delivered = await deliveries(api, endpoint.id, 'status=DELIVERED');
    expect(delivered).toHaveLength(1);
    const bad = await api.get(`/webhook-endpoints/${endpoint.id}/deliveries?status=LOST`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].pointer).toBe('/query/status');
  });

  it('stops delivering to a deleted endpoint', async () => {
    const api = await partner();
    const hooks = await receiver(() => 500);
    const endpoint = await createEndpoint(api, { url: hooks.url });
    await quietCustomer(api);
    await waitFor(
      () => Promise.resolve(hooks.received.length),
      (count) => count >= 2,
    );
    expect((await api.delete(`/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(204);
    const [delivery] = await server.ctx.db.query<{ status: string }>(
      'SELECT status FROM webhook_deliveries WHERE endpoint_id = $1',
      [endpoint.id],
    );
    expect(delivery!.status).toBe('FAILED');
  });
});
