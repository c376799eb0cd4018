/**
 * Retention: finished deliveries older than the configured age go, with their attempts, in small
 * batches; recent ones and pending ones stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeOldDeliveries } from '../../src/modules/webhooks/retention-repo.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { client, type TestServer } from '../helpers/server.ts';
import {
  createEndpoint,
  dispatcherOf,
  type Receiver,
  STARTUP_TIMEOUT_MS,
  startReceiver,
  startWebhookServer,
} from './support.ts';

let server: TestServer;
let ok: Receiver;
let failing: Receiver;

beforeAll(async () => {
  server = await startWebhookServer({ workers: false, env: { PONTE_WEBHOOK_RETENTION_DAYS: '7' } });
  ok = await startReceiver();
  failing = await startReceiver(() => 500);
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  await Promise.all([ok.close(), failing.close()]);
  await server.close();
});

const count = async (sql: string, params: unknown[]) =>
  (await server.ctx.db.query<{ n: number }>(sql, params))[0]!.n;

describe('webhook retention', () => {
  it('deletes finished deliveries past the retention age with their attempts, in batches, and keeps the rest', async () => {
    const retentionMs = server.config.webhooks.retentionMs;
    expect(retentionMs).toBe(7 * 24 * 3_600_000);
    const sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const delivered = await createEndpoint(sandbox, { url: ok.url, events: ['customer.created'] });
    const pending = await createEndpoint(sandbox, { url: failing.url, events: ['customer.created'] });
    for (let i = 0; i < 3; i++) await createCustomer(sandbox, individualBody());
    const dispatcher = dispatcherOf(server);
    await dispatcher.tick();
    await dispatcher.tick();
    await dispatcher.drain();
    const byEndpoint = (id: string) =>
      count('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
    const attemptsOf = (id: string) =>
      count(
        `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE d.endpoint_id = $1`,
        [id],
      );
    expect(await byEndpoint(delivered.id)).toBe(3);
    expect(await attemptsOf(delivered.id)).toBe(3);
    expect(await attemptsOf(pending.id)).toBe(3);

    const now = Date.now();
    // not old enough yet
    expect(await purgeOldDeliveries(server.ctx.db, new Date(now + retentionMs - 60_000), retentionMs)).toBe(
      0,
    );
    // past the age: one small batch, then the rest
    const later = new Date(now + retentionMs + 60_000);
    expect(await purgeOldDeliveries(server.ctx.db, later, retentionMs, 2)).toBe(2);
    expect(await byEndpoint(delivered.id)).toBe(1);
    expect(await purgeOldDeliveries(server.ctx.db, later, retentionMs, 2)).toBe(1);
    expect(await byEndpoint(delivered.id)).toBe(0);
    expect(await attemptsOf(delivered.id)).toBe(0);
    // deliveries still being retried are kept, whatever their age
    expect(await byEndpoint(pending.id)).toBe(3);
    expect(await attemptsOf(pending.id)).toBe(3);
  });
});
