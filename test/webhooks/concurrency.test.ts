/**
 * Two dispatchers on one PostgreSQL database (as two Ponte processes would run them) share the work:
 * every event reaches every endpoint exactly once, in order per resource.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { postWebhook } from '../../src/modules/webhooks/sender.ts';
import { openContext } from '../../src/runtime.ts';
import { startDispatcher } from '../../src/workers/index.ts';
import type { Loop } from '../../src/workers/loop.ts';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { client, eventually, type TestServer, testConfig, usingPostgres } from '../helpers/server.ts';
import {
  createEndpoint,
  type Receiver,
  STARTUP_TIMEOUT_MS,
  startReceiver,
  startWebhookServer,
} from './support.ts';

describe.runIf(usingPostgres())('two dispatchers on one database', () => {
  let server: TestServer & { databaseUrl: string | null };
  let second: AppContext;
  let secondDispatcher: Loop;
  let sentBySecond = 0;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    server = await startWebhookServer();
    const { config } = testConfig({
      DATABASE_URL: server.databaseUrl!,
      PONTE_WEBHOOK_DISPATCH_INTERVAL_MS: '5',
      PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    });
    second = await openContext(config);
    secondDispatcher = startDispatcher({
      db: second.db,
      clock: second.clock,
      config: second.config.webhooks,
      encryptionKey: second.instanceKeys.encryption,
      log: { error() {} },
      post: (request) => {
        sentBySecond++;
        return postWebhook(request);
      },
    });
    for (let i = 0; i < 2; i++) receivers.push(await startReceiver());
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await secondDispatcher?.stop();
    await second?.db.close();
    await server?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  it('deliver each event exactly once per endpoint, in order per resource', async () => {
    const api = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const endpoints = await Promise.all(receivers.map((r) => createEndpoint(api, { url: r.url })));
    const customers = 25;
    for (let i = 0; i < customers; i++) await createCustomer(api, individualBody({ taxId: validCpf('5') }));
    const expected = customers * 3; // customer.created, then UNDER_VERIFICATION and APPROVED
    await eventually(
      () =>
        server.ctx.db.query<{ status: string; n: bigint }>(
          `SELECT status, count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ANY($1::uuid[])
            GROUP BY status`,
          [endpoints.map((e) => e.id)],
        ),
      (rows) => rows.length === 1 && rows[0]!.status === 'DELIVERED' && rows[0]!.n === BigInt(2 * expected),
      60_000,
    );
    for (const receiver of receivers) {
      const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
      expect(ids).toHaveLength(expected);
      expect(new Set(ids).size).toBe(expected);
      const byVerification = new Map<string, string[]>();
      for (const request of receiver.received) {
        if (request.json.eventType !== 'customer.verification.updated') continue;
        const id = String(request.json.data.id);
        byVerification.set(id, [...(byVerification.get(id) ?? []), String(request.json.data.status)]);
      }
      expect(byVerification.size).toBe(customers);
      for (const statuses of byVerification.values())
        expect(statuses).toEqual(['UNDER_VERIFICATION', 'APPROVED']);
    }
    const attempts = await server.ctx.db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.endpoint_id = ANY($1::uuid[])`,
      [endpoints.map((e) => e.id)],
    );
    expect(attempts[0]!.n).toBe(BigInt(2 * expected));
    expect(sentBySecond).toBeGreaterThan(0);
    expect(sentBySecond).toBeLessThan(2 * expected);
  }, 90_000);
});
