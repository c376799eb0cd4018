/**
 * Recording attempts: delivered attempts to a healthy endpoint are recorded without locking the endpoint,
 * so recordings (and fan-outs, and other dispatchers) never queue behind one another on it; a failed
 * attempt, which may change the endpoint's health, still waits for the endpoint's lock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptResult } from '../../src/modules/webhooks/sender.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { client, type TestServer, usingPostgres } from '../helpers/server.ts';
import { createEndpoint, dispatcherOf, STARTUP_TIMEOUT_MS, startWebhookServer, waitFor } from './support.ts';

describe.runIf(usingPostgres())('recording webhook attempts', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startWebhookServer({ workers: false });
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await server?.close();
  });

  /**
   * Sends one event to a new endpoint through a dispatcher whose attempt answers `result` only once another
   * transaction holds the endpoint locked FOR UPDATE; the lock is held until `release()`.
   */
  async function attemptUnderLock(result: AttemptResult) {
    const api = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const endpoint = await createEndpoint(api, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['customer.created'],
    });
    await createCustomer(api, individualBody());
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holder: Promise<void> = Promise.resolve();
    const dispatcher = dispatcherOf(server, {
      post: () =>
        new Promise((answer) => {
          holder = server.ctx.db.transaction(async (tx) => {
            await tx.query('SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR UPDATE', [endpoint.id]);
            answer(result);
            await released;
          });
        }),
    });
    const delivery = async () => {
      const [row] = await server.ctx.db.query<{ status: string; attempts: number }>(
        'SELECT status, attempt_count AS attempts FROM webhook_deliveries WHERE endpoint_id = $1',
        [endpoint.id],
      );
      return row;
    };
    await dispatcher.tick();
    return {
      delivery,
      dispatcher,
      async release() {
        release();
        await holder;
      },
    };
  }

  it('records a delivered attempt while another transaction holds its healthy endpoint locked', async () => {
    const run = await attemptUnderLock({ statusCode: 200, latencyMs: 1, error: null });
    try {
      const recorded = await waitFor(run.delivery, (row) => row?.attempts === 1);
      expect(recorded?.status).toBe('DELIVERED');
    } finally {
      await run.release();
    }
    await run.dispatcher.drain();
  });

  it('records a failed attempt only once the endpoint is no longer locked', async () => {
    const run = await attemptUnderLock({ statusCode: 500, latencyMs: 1, error: null });
    try {
      // the recording transaction waits for the endpoint's lock, having recorded nothing
      await waitFor(
        () =>
          server.ctx.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          ),
        (rows) => rows[0]!.n === 1,
      );
      expect(await run.delivery()).toEqual({ status: 'PENDING', attempts: 0 });
    } finally {
      await run.release();
    }
    const recorded = await waitFor(run.delivery, (row) => row?.attempts === 1);
    expect(recorded?.status).toBe('PENDING');
    await run.dispatcher.drain();
  });
});
