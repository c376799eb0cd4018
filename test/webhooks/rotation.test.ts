import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eraseRetiredSecrets } from '../../src/modules/webhooks/retention-repo.ts';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, type TestServer } from '../helpers/server.ts';
import {
  createEndpoint,
  deliveriesWhere,
  manualClock,
  type Received,
  type Receiver,
  STARTUP_TIMEOUT_MS,
  startReceiver,
  startWebhookServer,
} from './support.ts';

const time = manualClock();
let server: TestServer;
let sandbox: Client;
let production: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  server = await startWebhookServer({ clock: time.clock });
  const tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  await server.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

const HOUR = 3600;
const rotate = (api: Client, id: string, body?: unknown, headers?: Record<string, string>) =>
  api.post(`/webhook-endpoints/${id}/rotate-secret`, body, headers);

/** Verifies a received message with one secret as a partner's receiver would, at the time it was signed. */
function verify(
  secret: string,
  received: Received,
  signature = String(received.headers['webhook-signature']),
) {
  const headers = {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': signature,
  };
  // the library checks the timestamp against its own clock: give it the test's
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Number(headers['webhook-timestamp']) * 1000);
  try {
    return new Webhook(secret).verify(received.body, headers);
  } finally {
    vi.useRealTimers();
  }
}

/** A customer whose only event is customer.created: one delivery per endpoint. */
const quietCustomer = (api: Client) => createCustomer(api, individualBody({ taxId: validCpf('1') }));

describe('POST /webhook-endpoints/{id}/rotate-secret', () => {
  it('signs every delivery with both secrets during the overlap, and with the new one only after it', async () => {
    const hooks = await startReceiver();
    receivers.push(hooks);
    const endpoint = await createEndpoint(sandbox, { url: hooks.url });

    const rotated = await rotate(sandbox, endpoint.id, { expiresIn: HOUR });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, ...view } = rotated.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).not.toBe(endpoint.secret);
    expect(view).toEqual({
      ...(await sandbox.get(`/webhook-endpoints/${endpoint.id}`)).json(),
      previousSecretExpiresAt: new Date(time.now().getTime() + HOUR * 1000).toISOString(),
    });

    // During the overlap: two signatures, one per secret, each verifying on its own.
    await quietCustomer(sandbox);
    await deliveriesWhere(sandbox, endpoint.id, 1, (d) => d.status === 'DELIVERED');
    const during = hooks.received[0]!;
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(verify(secret, during, signatures[0])).toEqual(JSON.parse(during.body));
    expect(verify(endpoint.secret, during, signatures[1])).toEqual(JSON.parse(during.body));
    expect(() => verify(endpoint.secret, during, signatures[0])).toThrow();
    expect(() => verify(secret, during, signatures[1])).toThrow();
    // a receiver holding either secret verifies the header as sent
    expect(verify(endpoint.secret, during)).toEqual(JSON.parse(during.body));
    expect(verify(secret, during)).toEqual(JSON.parse(during.body));

    // Once the overlap is over: the new secret only; the old one no longer verifies.
    time.advance(HOUR * 1000 + 1);
    await quietCustomer(sandbox);
    await deliveriesWhere(sandbox, endpoint.id, 2, (d) => d.status === 'DELIVERED');
    const after = hooks.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(secret, after)).toEqual(JSON.parse(after.body));
    expect(() => verify(endpoint.secret, after)).toThrow();
  });

  it('keeps the replaced secret for a day by default, and a further rotation retires the older one', async () => {
    const endpoint = await createEndpoint(sandbox, { url: 'https://93.184.215.14/hooks' });
    const first = await rotate(sandbox, endpoint.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().previousSecretExpiresAt).toBe(
      new Date(time.now().getTime() + 24 * HOUR * 1000).toISOString(),
    );
    const second = await rotate(sandbox, endpoint.id, { expiresIn: 0 });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().previousSecretExpiresAt).toBe(time.now().toISOString());
    expect(second.json().secret).not.toBe(first.json().secret);
  });

  it('erases a replaced secret once its overlap is over, keeping when it ended', async () => {
    const endpoint = await createEndpoint(sandbox, { url: 'https://93.184.215.14/hooks' });
    const rotated = (await rotate(sandbox, endpoint.id, { expiresIn: 60 })).json();
    const stored = () =>
      server.ctx.db.query<{ previous_secret_ciphertext: string | null }>(
        'SELECT previous_secret_ciphertext FROM webhook_endpoints WHERE id = $1',
        [endpoint.id],
      );
    await eraseRetiredSecrets(server.ctx.db, time.now());
    expect((await stored())[0]!.previous_secret_ciphertext).toMatch(/^v1\./);
    await eraseRetiredSecrets(server.ctx.db, new Date(time.now().getTime() + 60_000));
    expect(await stored()).toEqual([{ previous_secret_ciphertext: null }]);
    const read = (await sandbox.get(`/webhook-endpoints/${endpoint.id}`)).json();
    expect(read.previousSecretExpiresAt).toBe(rotated.previousSecretExpiresAt);
  });

  it('answers the new secret with Cache-Control: no-store, replayed under its key for 10 minutes only', async () => {
    const endpoint = await createEndpoint(sandbox, { url: 'https://93.184.215.14/hooks' });
    const key = { 'idempotency-key': `rotate-${endpoint.id}` };
    const answer = await rotate(sandbox, endpoint.id, { expiresIn: 60 }, key);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const again = await rotate(sandbox, endpoint.id, { expiresIn: 60 }, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.body).toBe(answer.body);
    // the secret is in no other answer
    expect((await sandbox.get(`/webhook-endpoints/${endpoint.id}`)).body).not.toContain(answer.json().secret);
    time.advance(10 * 60_000);
    const late = await rotate(sandbox, endpoint.id, { expiresIn: 60 }, key);
    expect(late.statusCode).toBe(422);
    expect(late.body).not.toContain(answer.json().secret);
  });

  it('refuses a sandbox key rotating a production endpoint (404), leaving its secret alone', async () => {
    const endpoint = await createEndpoint(production, { url: 'https://93.184.215.14/hooks' });
    const response = await rotate(sandbox, endpoint.id, { expiresIn: 60 });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(
      (await production.get(`/webhook-endpoints/${endpoint.id}`)).json().previousSecretExpiresAt,
    ).toBeNull();
  });

  it('answers a bad expiresIn with 400 problem+json, rotating nothing', async () => {
    const endpoint = await createEndpoint(sandbox, { url: 'https://93.184.215.14/hooks' });
    for (const body of [
      { expiresIn: -1 },
      { expiresIn: 7 * 24 * HOUR + 1 },
      { expiresIn: 1.5 },
      { expiresIn: 'tomorrow' },
      { expiresIn: null },
      { overlap: 60 },
    ]) {
      const response = await rotate(sandbox, endpoint.id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json().errors[0].pointer, JSON.stringify(body)).toMatch(/^\/body/);
    }
    expect(
      (await sandbox.get(`/webhook-endpoints/${endpoint.id}`)).json().previousSecretExpiresAt,
    ).toBeNull();
  });
});
