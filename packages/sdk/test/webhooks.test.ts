import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validCpf } from '../../../test/helpers/factories.ts';
import {
  type Receiver,
  STARTUP_TIMEOUT_MS,
  startReceiver,
  startWebhookServer,
  waitFor,
} from '../../../test/webhooks/support.ts';
import { type Ponte, PonteWebhookVerificationError, type WebhookEvent } from '../src/index.ts';
import { type SdkServer, startSdkServer } from './support.ts';

let server: SdkServer;
let ponte: Ponte;
let receiver: Receiver;
let secret: string;
let event: { headers: Record<string, string>; body: string };

beforeAll(async () => {
  server = await startSdkServer({}, startWebhookServer);
  ponte = server.ponte();
  receiver = await startReceiver();
  const endpoint = await ponte.webhookEndpoints.create({ url: receiver.url, events: ['customer.created'] });
  secret = endpoint.secret;
  expect(await ponte.webhookEndpoints.retrieve(endpoint.id)).toMatchObject({
    id: endpoint.id,
    url: receiver.url,
  });
  const customer = await ponte.customers.create({
    type: 'INDIVIDUAL',
    name: 'Ana Souza',
    taxId: validCpf('1'),
    country: 'BRA',
    email: 'ana@example.com',
  });
  await waitFor(
    async () => receiver.received.length,
    (count) => count > 0,
  );
  const [delivery] = receiver.received;
  event = { headers: delivery!.headers as Record<string, string>, body: delivery!.body };
  expect(event.body).toContain(customer.id);
  const deliveries = await waitFor(
    () => ponte.webhookEndpoints.deliveries(endpoint.id),
    (page) => page.data[0]?.status === 'DELIVERED',
  );
  expect(deliveries.data[0]?.eventType).toBe('customer.created');
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

describe('webhooks.verify on a delivery of the real dispatcher', () => {
  it('accepts it and returns the typed event', () => {
    const verified: WebhookEvent = ponte.webhooks.verify(event.body, event.headers, secret);
    expect(verified.eventType).toBe('customer.created');
    if (verified.eventType !== 'customer.created') throw new Error('unreachable');
    // narrowed by eventType: data is a Customer
    expect(verified.data.verification.status).toEqual(expect.any(String));
    expect(verified.eventId).toBe(event.headers['webhook-id']);
  });

  it('accepts the body as bytes and the headers as a Headers object', () => {
    const verified = ponte.webhooks.verify(Buffer.from(event.body), new Headers(event.headers), secret);
    expect(verified.eventType).toBe('customer.created');
  });

  it('refuses a tampered body', () => {
    const tampered = event.body.replace('"Ana Souza"', '"Eve Souza"');
    expect(tampered).not.toBe(event.body);
    expect(() => ponte.webhooks.verify(tampered, event.headers, secret)).toThrow(
      PonteWebhookVerificationError,
    );
  });

  it('refuses another secret, a changed webhook-id and a missing signature', () => {
    const otherSecret = `whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`;
    expect(() => ponte.webhooks.verify(event.body, event.headers, otherSecret)).toThrow(
      PonteWebhookVerificationError,
    );
    expect(() =>
      ponte.webhooks.verify(event.body, { ...event.headers, 'webhook-id': 'another' }, secret),
    ).toThrow(PonteWebhookVerificationError);
    const { 'webhook-signature': _dropped, ...unsigned } = event.headers;
    expect(() => ponte.webhooks.verify(event.body, unsigned, secret)).toThrow(/Missing/);
  });

  it('verifies with the old and the new secret while a rotated secret overlaps, with the new one only after', async () => {
    const hooks = await startReceiver();
    try {
      const endpoint = await ponte.webhookEndpoints.create({ url: hooks.url, events: ['customer.created'] });
      const rotated = await ponte.webhookEndpoints.rotateSecret(endpoint.id, { expiresIn: 3600 });
      expect(rotated.secret).not.toBe(endpoint.secret);
      expect(Date.parse(rotated.previousSecretExpiresAt!)).toBeGreaterThan(Date.now());
      await ponte.customers.create({
        type: 'INDIVIDUAL',
        name: 'Rui Souza',
        taxId: validCpf('1'),
        country: 'BRA',
        email: 'rui@example.com',
      });
      await waitFor(
        async () => hooks.received.length,
        (count) => count > 0,
      );
      const delivery = hooks.received[0]!;
      const headers = delivery.headers as Record<string, string>;
      expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
      for (const key of [endpoint.secret, rotated.secret])
        expect(ponte.webhooks.verify(delivery.body, headers, key).eventType).toBe('customer.created');

      const retired = await ponte.webhookEndpoints.rotateSecret(endpoint.id, { expiresIn: 0 });
      expect(retired.previousSecretExpiresAt).not.toBeNull();
    } finally {
      await hooks.close();
    }
  });

  it('refuses a delivery signed outside the timestamp tolerance, as a possible replay', () => {
    const signedAt = Number(event.headers['webhook-timestamp']) * 1000;
    const later = () => signedAt + 301_000;
    expect(() => ponte.webhooks.verify(event.body, event.headers, secret, { now: later })).toThrow(
      /tolerance/,
    );
    expect(
      ponte.webhooks.verify(event.body, event.headers, secret, { now: later, toleranceSeconds: 600 })
        .eventType,
    ).toBe('customer.created');
  });
});
