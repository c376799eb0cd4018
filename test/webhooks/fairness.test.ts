/**
 * One tenant's webhooks cannot hold up another's: attempts in flight are bounded per endpoint and per
 * project, so a project whose receivers accept and never answer only delays its own deliveries; and a
 * project may register a bounded number of endpoints.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client, type TestServer } from '../helpers/server.ts';
import {
  createEndpoint,
  type Receiver,
  STARTUP_TIMEOUT_MS,
  startReceiver,
  startWebhookServer,
  waitFor,
} from './support.ts';

let server: TestServer;
let honest: Receiver;
let hanging: http.Server;
let hangingUrl: string;
let hangingRequests = 0;

beforeAll(async () => {
  // no attempt times out within a test (each takes under a minute): a receiver that never answers holds
  // its place in flight for the whole test, however slowly a loaded machine creates the events
  server = await startWebhookServer({ env: { PONTE_WEBHOOK_TIMEOUT_MS: '60000' } });
  honest = await startReceiver();
  // accepts every request and never answers
  hanging = http.createServer(() => {
    hangingRequests++;
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  hanging.closeAllConnections();
  hanging.close();
  await honest.close();
  await server.close();
});

/** Milliseconds from creating a customer of `api` until the honest receiver has its event. */
async function deliveryLatency(api: Client): Promise<number> {
  const before = honest.received.length;
  const started = Date.now();
  await createCustomer(api, individualBody());
  await waitFor(
    async () => honest.received.length,
    (count) => count > before,
  );
  return Date.now() - started;
}

describe('webhook delivery fairness', () => {
  it('sends one endpoint at most its in-flight limit at once, the deliveries claimed ahead waiting their turn under a lease as long as their turn may take', async () => {
    const maxInFlightPerEndpoint = 10;
    expect(server.config.webhooks).toMatchObject({ maxInFlightPerEndpoint });
    // answers only when the test lets it: the dispatcher claims more than it may send at once
    const held: http.ServerResponse[] = [];
    let open = 0;
    let mostOpen = 0;
    let answered = 0;
    let answering = false;
    const gated = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        open++;
        mostOpen = Math.max(mostOpen, open);
        response.on('finish', () => {
          open--;
          answered++;
        });
        if (answering) response.end('ok');
        else held.push(response);
      });
    });
    await new Promise<void>((resolve) => gated.listen(0, '127.0.0.1', resolve));
    try {
      const tenant = await server.newTenant('Busy partner');
      const api = client(server.sandbox, tenant.sandboxKey);
      const url = `http://127.0.0.1:${(gated.address() as AddressInfo).port}/hooks`;
      await createEndpoint(api, { url, events: ['customer.created'] });
      const events = 3 * maxInFlightPerEndpoint;
      for (let i = 0; i < events; i++) await createCustomer(api, individualBody());
      await waitFor(
        async () => held.length,
        (count) => count >= maxInFlightPerEndpoint,
      );
      expect(open).toBe(maxInFlightPerEndpoint);
      // Every delivery is claimed, each for a timeout per round of attempts up to its own (10 at once),
      // one to spare and a minute: a crash leaves the first due again well before the last. (Run before
      // the hanging project's test: no other delivery is held, so the endpoint's queue is the longest.)
      const leases = async () =>
        server.ctx.db.query<{ ms: number }>(
          `SELECT (extract(epoch FROM next_attempt_at - updated_at) * 1000)::int AS ms
             FROM webhook_deliveries WHERE project_id = $1 AND claim_token IS NOT NULL ORDER BY event_seq`,
          [tenant.projectId],
        );
      await waitFor(leases, (rows) => rows.length === events);
      const timeoutMs = server.config.webhooks.timeoutMs;
      expect((await leases()).map((row) => row.ms)).toEqual(
        Array.from(
          { length: events },
          (_, i) => (Math.ceil((i + 1) / maxInFlightPerEndpoint) + 1) * timeoutMs + 60_000,
        ),
      );
      answering = true;
      for (const response of held.splice(0)) response.end('ok');
      await waitFor(
        async () => answered,
        (count) => count >= events,
      );
      expect(answered).toBe(events);
      expect(mostOpen).toBe(maxInFlightPerEndpoint);
    } finally {
      gated.closeAllConnections();
      gated.close();
    }
  }, 60_000);

  it('a project whose receivers hang does not move another project’s delivery latency by more than a second', async () => {
    const maxInFlightPerProject = 20;
    const maxEndpointsPerProject = 20;
    expect(server.config.webhooks).toMatchObject({ maxInFlightPerProject, maxEndpointsPerProject });
    const other = client(server.sandbox, (await server.newTenant('Honest partner')).sandboxKey);
    await createEndpoint(other, { url: honest.url });
    const baseline = await deliveryLatency(other);

    // A hostile project: every endpoint it may have points at a receiver that never answers, and it
    // makes more deliveries than the whole dispatcher runs at once.
    const hostileTenant = await server.newTenant('Hostile partner');
    const hostile = client(server.sandbox, hostileTenant.sandboxKey);
    for (let i = 0; i < maxEndpointsPerProject; i++) await createEndpoint(hostile, { url: hangingUrl });
    for (let i = 0; i < 3; i++) await createCustomer(hostile, individualBody());
    await waitFor(
      async () => hangingRequests,
      (count) => count >= maxInFlightPerProject,
    );

    const underLoad = await deliveryLatency(other);
    // the hostile attempts are all still hanging: the honest delivery did not wait for their timeout
    const [answered] = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.project_id = $1`,
      [hostileTenant.projectId],
    );
    expect(answered!.n).toBe(0);
    expect(hangingRequests).toBeLessThanOrEqual(maxInFlightPerProject);
    expect(underLoad - baseline).toBeLessThan(1_000);
  }, 60_000);

  it('limits the endpoints of a project per environment', async () => {
    const max = server.config.webhooks.maxEndpointsPerProject;
    const tenant = await server.newTenant('Many endpoints');
    const sandbox = client(server.sandbox, tenant.sandboxKey);
    const created = [];
    for (let i = 0; i < max; i++) created.push(await createEndpoint(sandbox, { url: `${honest.url}/${i}` }));
    const refused = await sandbox.post('/webhook-endpoints', { url: `${honest.url}/over` });
    expect(refused.statusCode).toBe(422);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json().code).toBe('limit_exceeded');
    expect((await sandbox.get('/webhook-endpoints')).json().pagination.total).toBe(max);
    // a deleted endpoint frees its place
    expect((await sandbox.delete(`/webhook-endpoints/${created[0]!.id}`)).statusCode).toBe(204);
    expect((await sandbox.post('/webhook-endpoints', { url: `${honest.url}/again` })).statusCode).toBe(201);
  });
});
