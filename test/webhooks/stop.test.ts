/**
 * A dispatcher claims more deliveries than it may send at once; those still waiting for room when it stops
 * go back to the due list at once, for another process, instead of waiting for their lease to end.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { client, type TestServer } from '../helpers/server.ts';
import { createEndpoint, dispatcherOf, STARTUP_TIMEOUT_MS, startWebhookServer, waitFor } from './support.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startWebhookServer({ workers: false, env: { PONTE_WEBHOOK_TIMEOUT_MS: '30000' } });
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  await server?.close();
});

describe('stopping a dispatcher', () => {
  it('gives the deliveries claimed but not yet started back to the due list at once', async () => {
    const { maxInFlightPerEndpoint } = server.config.webhooks;
    // accepts every request and answers none until the test closes its connections
    const requests: http.IncomingMessage[] = [];
    const hanging = http.createServer((request) => {
      requests.push(request);
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const api = client(server.sandbox, (await server.newTenant('Slow partner')).sandboxKey);
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
      const endpoint = await createEndpoint(api, { url, events: ['customer.created'] });
      const waitingCount = 5;
      for (let i = 0; i < maxInFlightPerEndpoint + waitingCount; i++) {
        await createCustomer(api, individualBody());
      }
      const unclaimed = async () => {
        const [row] = await server.ctx.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries
            WHERE endpoint_id = $1 AND status = 'PENDING' AND claim_token IS NULL AND attempt_count = 0`,
          [endpoint.id],
        );
        return row!.n;
      };
      const dispatcher = dispatcherOf(server);
      await dispatcher.tick();
      await waitFor(
        async () => requests.length,
        (count) => count >= maxInFlightPerEndpoint,
      );
      // every delivery claimed; only the in-flight limit sent
      expect(await unclaimed()).toBe(0);
      expect(requests.length).toBe(maxInFlightPerEndpoint);

      const stopping = dispatcher.stop();
      await waitFor(unclaimed, (count) => count === waitingCount);
      // the attempts in flight end (connection reset) and are recorded; the ones given back never went out
      hanging.closeAllConnections();
      await stopping;
      expect(requests.length).toBe(maxInFlightPerEndpoint);
      expect(await unclaimed()).toBe(waitingCount);
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  }, 60_000);
});
