/**
 * The dispatcher sleeps while idle and wakes on a work notification: with a poll interval of ten minutes,
 * only the notification that a commit sends can get an event out within the test's patience.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const TEN_MINUTES = String(10 * 60_000);

let server: TestServer;
let api: Client;
let hooks: Receiver;

beforeAll(async () => {
  server = await startWebhookServer({
    env: { PONTE_WEBHOOK_DISPATCH_INTERVAL_MS: TEN_MINUTES, PONTE_WORKER_MAX_IDLE_MS: TEN_MINUTES },
  });
  api = client(server.sandbox, (await server.newTenant()).sandboxKey);
  hooks = await startReceiver();
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  await server.close();
  await hooks.close();
});

describe('dispatcher wake-up', () => {
  it('delivers an event as soon as it commits, without waiting its poll interval', async () => {
    const endpoint = await createEndpoint(api, { url: hooks.url, events: ['customer.created'] });
    await createCustomer(api, individualBody({ taxId: validCpf('1') }));
    const [delivery] = await deliveriesWhere(api, endpoint.id, 1, (d) => d.status === 'DELIVERED');
    expect(delivery!.eventType).toBe('customer.created');
    expect(hooks.received).toHaveLength(1);
  });

  it('sends a delivery a partner retries at once, without waiting its poll interval', async () => {
    hooks.respond = () => 503;
    const endpoint = await createEndpoint(api, { url: hooks.url, events: ['customer.created'] });
    await createCustomer(api, individualBody({ taxId: validCpf('2') }));
    // the first attempt fails; the next is due in seconds, and nothing notifies the sleeping dispatcher
    const [failed] = await deliveriesWhere(api, endpoint.id, 1, (d) => d.attempts.length === 1);
    expect(failed!.status).toBe('PENDING');
    hooks.respond = () => 200;
    const retried = await api.post(
      `/webhook-endpoints/${endpoint.id}/deliveries/${failed!.id}/retry`,
      undefined,
    );
    expect(retried.statusCode).toBe(202);
    const [delivered] = await waitFor(
      () => deliveries(api, endpoint.id),
      (list) => list[0]?.status === 'DELIVERED',
    );
    expect(delivered!.attempts).toHaveLength(2);
  });
});

describe('without notifications', () => {
  let quiet: TestServer;
  beforeAll(async () => {
    // as behind a transaction-mode pooler: no LISTEN; the back-off alone finds the work
    quiet = await startWebhookServer({
      env: {
        PONTE_DATABASE_NOTIFICATIONS: 'false',
        PONTE_WEBHOOK_DISPATCH_INTERVAL_MS: '50',
        PONTE_WORKER_MAX_IDLE_MS: '400',
      },
    });
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await quiet.close();
  });

  it('an idle dispatcher still delivers, polling at most its idle ceiling apart', async () => {
    hooks.respond = () => 200;
    const partner = client(quiet.sandbox, (await quiet.newTenant()).sandboxKey);
    const endpoint = await createEndpoint(partner, { url: hooks.url, events: ['customer.created'] });
    await createCustomer(partner, individualBody({ taxId: validCpf('3') }));
    await deliveriesWhere(partner, endpoint.id, 1, (d) => d.status === 'DELIVERED');
  });
});
