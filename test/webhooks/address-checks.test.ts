/**
 * Delivery-time address checks. Dispatchers are driven by hand here (no background workers), each built
 * with the settings of the process it stands for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config.ts';
import { createWebhookService } from '../../src/modules/webhooks/service.ts';
import type { Resolver } from '../../src/modules/webhooks/url-safety.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client, type TestServer } from '../helpers/server.ts';
import {
  createEndpoint,
  deliveries,
  dispatcherOf,
  type Receiver,
  STARTUP_TIMEOUT_MS,
  startReceiver,
  startWebhookServer,
} from './support.ts';

let strict: TestServer;
let permissive: TestServer;
let hooks: Receiver;

beforeAll(async () => {
  strict = await startWebhookServer({ workers: false });
  permissive = await startWebhookServer({
    workers: false,
    env: { PONTE_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
  });
  hooks = await startReceiver();
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  await Promise.all([strict.close(), permissive.close(), hooks.close()]);
});

/** One dispatcher round, waiting for its attempts to be recorded. */
async function dispatchOnce(server: TestServer, config: WebhookConfig, resolve?: Resolver) {
  const dispatcher = dispatcherOf(server, { config, ...(resolve ? { resolve } : {}) });
  await dispatcher.tick();
  await dispatcher.drain();
}

async function retry(api: Client, endpointId: string, deliveryId: string) {
  const response = await api.post(
    `/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/retry`,
    undefined,
  );
  expect(response.statusCode).toBe(202);
}

describe('delivery-time address checks', () => {
  it('refuses a host that resolved to a public address at creation but to loopback at delivery', async () => {
    const tenant = await strict.newTenant();
    const production = client(strict.production, tenant.productionKey);
    let answer = '93.184.215.14';
    const rebinding: Resolver = async (host) =>
      host === 'hooks.partner.example' ? [{ address: answer, family: 4 }] : [];
    const webhooks = createWebhookService({ ...strict.ctx, resolve: rebinding });
    const endpoint = await webhooks.create(
      { projectId: tenant.projectId, environment: 'production' },
      { url: `http://hooks.partner.example:${hooks.port}/hooks` },
    );
    await createCustomer(production, individualBody());
    answer = '127.0.0.1';
    await dispatchOnce(strict, strict.config.webhooks, rebinding);
    const [delivery] = await deliveries(production, endpoint.id);
    expect(delivery!.status).toBe('PENDING');
    expect(delivery!.attempts).toEqual([
      {
        at: expect.any(String),
        statusCode: null,
        latencyMs: 0,
        error: 'not sent: address not allowed (private, loopback or link-local)',
      },
    ]);
    expect(hooks.received).toHaveLength(0);

    // Where private addresses are allowed, the request goes to the address resolved and checked, with
    // the endpoint's own host name in the Host header.
    await retry(production, endpoint.id, delivery!.id);
    await dispatchOnce(strict, { ...strict.config.webhooks, allowPrivateUrls: true }, rebinding);
    const [delivered] = await deliveries(production, endpoint.id);
    expect(delivered!.status).toBe('DELIVERED');
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0]!.headers.host).toBe(`hooks.partner.example:${hooks.port}`);
  });

  it('with PONTE_WEBHOOK_ALLOW_PRIVATE_URLS=true production accepts private URLs; without it a dispatcher refuses them', async () => {
    const tenant = await permissive.newTenant();
    const production = client(permissive.production, tenant.productionKey);
    const endpoint = await createEndpoint(production, { url: `http://localhost:${hooks.port}/private` });
    await createCustomer(production, individualBody());
    const sent = hooks.received.length;
    // a process without the setting checks the resolved address (localhost is 127.0.0.1) and refuses
    await dispatchOnce(permissive, { ...permissive.config.webhooks, allowPrivateUrls: false });
    const [refused] = await deliveries(production, endpoint.id);
    expect(refused!.attempts[0]!.error).toBe(
      'not sent: address not allowed (private, loopback or link-local)',
    );
    expect(hooks.received.length).toBe(sent);
    // the configured process delivers
    await retry(production, endpoint.id, refused!.id);
    await dispatchOnce(permissive, permissive.config.webhooks);
    const [delivered] = await deliveries(production, endpoint.id);
    expect(delivered!.status).toBe('DELIVERED');
    expect(hooks.received.length).toBe(sent + 1);
  });
});
