/**
 * The retry horizon, manual retries and disabling, on a clock the test moves forward: a day of retries
 * takes milliseconds. Retries start 5 s apart and double up to a cap configured to 4 h here, for the
 * default 24 h horizon; the failing period that disables an endpoint is configured to 2 days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, type TestServer } from '../helpers/server.ts';
import {
  createEndpoint,
  type Delivery,
  deliveries,
  manualClock,
  type Receiver,
  STARTUP_TIMEOUT_MS,
  startReceiver,
  startWebhookServer,
  waitFor,
} from './support.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const time = manualClock();
let server: TestServer;
let hooks: Receiver;

beforeAll(async () => {
  server = await startWebhookServer({
    clock: time.clock,
    env: {
      PONTE_WEBHOOK_RETRY_MAX_DELAY_MS: String(4 * HOUR),
      PONTE_WEBHOOK_DISABLE_AFTER_MS: String(2 * DAY),
    },
  });
  hooks = await startReceiver(() => 500);
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  await server.close();
  await hooks.close();
});

const quietCustomer = (api: Client) => createCustomer(api, individualBody({ taxId: validCpf('1') }));

/** Waits until the one delivery of the endpoint has `attempts` attempts recorded and is not in flight. */
async function settledAfter(api: Client, endpointId: string, attempts: number): Promise<Delivery> {
  const [delivery] = await waitFor(
    () => deliveries(api, endpointId),
    (list) => list.length === 1 && list[0]!.attempts.length === attempts,
  );
  return delivery!;
}

describe('webhook retries over time', () => {
  let api: Client;
  let endpointId: string;
  let failed: Delivery;

  it('retries a failing delivery with growing, jittered delays for 24 hours, then marks it FAILED', async () => {
    api = client(server.sandbox, (await server.newTenant()).sandboxKey);
    endpointId = (await createEndpoint(api, { url: hooks.url })).id;
    await quietCustomer(api);
    const createdAt = time.now().getTime();
    let delivery = await settledAfter(api, endpointId, 1);
    const gaps: number[] = [];
    while (delivery.status === 'PENDING') {
      const last = new Date(delivery.attempts.at(-1)!.at).getTime();
      const next = new Date(delivery.nextAttemptAt!).getTime();
      gaps.push(next - last);
      time.set(delivery.nextAttemptAt!);
      delivery = await settledAfter(api, endpointId, delivery.attempts.length + 1);
    }
    expect(delivery.status).toBe('FAILED');
    expect(delivery.nextAttemptAt).toBeNull();
    const attemptTimes = delivery.attempts.map((a) => new Date(a.at).getTime());
    expect(attemptTimes.at(-1)! - createdAt).toBeGreaterThanOrEqual(DAY);
    expect(attemptTimes.at(-1)! - createdAt).toBeLessThan(DAY + HOUR);
    expect(delivery.attempts.every((a) => a.statusCode === 500)).toBe(true);
    // exponential until the four-hour cap: every gap before it at least 1.5 times the previous one
    const growing = gaps.slice(0, 9);
    for (let i = 1; i < growing.length; i++) expect(growing[i]!).toBeGreaterThan(1.5 * growing[i - 1]!);
    expect(gaps[0]!).toBeGreaterThanOrEqual(3_750);
    expect(gaps[0]!).toBeLessThanOrEqual(5_000);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(4 * HOUR);
    // jitter: the capped retries do not all fall on the same delay
    expect(new Set(gaps.slice(12, -1)).size).toBeGreaterThan(1);
    expect(hooks.received.length).toBe(delivery.attempts.length);
    failed = delivery;
  }, 120_000);

  it('retries a failed delivery once more on request, with the same webhook-id', async () => {
    hooks.respond = () => 200;
    const sentBefore = hooks.received.length;
    const response = await api.post(
      `/webhook-endpoints/${endpointId}/deliveries/${failed.id}/retry`,
      undefined,
    );
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      id: failed.id,
      status: 'PENDING',
      nextAttemptAt: time.now().toISOString(),
    });
    const delivery = await settledAfter(api, endpointId, failed.attempts.length + 1);
    expect(delivery.status).toBe('DELIVERED');
    expect(hooks.received.length).toBe(sentBefore + 1);
    expect(hooks.received.at(-1)!.headers['webhook-id']).toBe(failed.eventId);
    expect(hooks.received.at(-1)!.body).toBe(hooks.received[0]!.body);
    const again = await api.post(`/webhook-endpoints/${endpointId}/deliveries/${failed.id}/retry`, undefined);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_state_transition');
    const missing = await api.post(
      `/webhook-endpoints/${endpointId}/deliveries/0190e0e2-0000-7000-8000-000000000000/retry`,
      undefined,
    );
    expect(missing.statusCode).toBe(404);
  });

  it('retries a pending delivery right away on request, without waiting for its back-off', async () => {
    hooks.respond = () => 500;
    const tenant = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const endpoint = await createEndpoint(tenant, { url: hooks.url });
    await quietCustomer(tenant);
    const pending = await settledAfter(tenant, endpoint.id, 1);
    expect(pending.status).toBe('PENDING');
    expect(new Date(pending.nextAttemptAt!).getTime()).toBeGreaterThan(time.now().getTime());
    hooks.respond = () => 200;
    const response = await tenant.post(
      `/webhook-endpoints/${endpoint.id}/deliveries/${pending.id}/retry`,
      undefined,
    );
    expect(response.statusCode).toBe(202);
    const delivered = await settledAfter(tenant, endpoint.id, 2);
    expect(delivered.status).toBe('DELIVERED');
  });
});

/** Waits until the endpoint has `count` deliveries and its newest one has been attempted. */
const newestAttempted = (api: Client, endpointId: string, count: number) =>
  waitFor(
    () => deliveries(api, endpointId),
    (list) => list.length === count && list[0]!.attempts.length >= 1,
  );

describe('disabling a failing endpoint', () => {
  it('starts the failing period again after a delivery: failures since then alone count', async () => {
    hooks.respond = () => 500;
    const api = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const endpoint = await createEndpoint(api, { url: hooks.url });
    const withAttempts = (count: number) => newestAttempted(api, endpoint.id, count);
    await quietCustomer(api);
    await withAttempts(1);
    const failingSince = time.now().getTime();
    // the endpoint answers again: a delivery ends the failing period
    hooks.respond = () => 200;
    await quietCustomer(api);
    expect((await withAttempts(2))[0]!.status).toBe('DELIVERED');
    // past the period counted from the first failure, a new failure starts a period of its own
    hooks.respond = () => 500;
    time.set(new Date(failingSince + 2 * DAY + HOUR));
    await quietCustomer(api);
    await withAttempts(3);
    const read = (await api.get(`/webhook-endpoints/${endpoint.id}`)).json();
    expect(read.status).toBe('ENABLED');
  });

  it('disables an endpoint whose deliveries have all failed for the configured period, and says why', async () => {
    hooks.respond = () => 500;
    const api = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const endpoint = await createEndpoint(api, { url: hooks.url });
    const attemptsOf = (count: number) => newestAttempted(api, endpoint.id, count);
    await quietCustomer(api);
    await attemptsOf(1);
    const failingSince = time.now().getTime();
    // a day later: still failing, still enabled
    time.advance(DAY + HOUR);
    await quietCustomer(api);
    await attemptsOf(2);
    expect((await api.get(`/webhook-endpoints/${endpoint.id}`)).json().status).toBe('ENABLED');
    // just before two days have passed: a new event, failing too, still enabled
    time.set(new Date(failingSince + 2 * DAY - 60_000));
    await quietCustomer(api);
    await attemptsOf(3);
    expect((await api.get(`/webhook-endpoints/${endpoint.id}`)).json().status).toBe('ENABLED');
    // two days after the first failure, the next failed attempt disables it and ends what was pending
    time.set(new Date(failingSince + 2 * DAY));
    const list = await waitFor(
      () => deliveries(api, endpoint.id),
      (all) => all.length === 3 && all.every((d) => d.status === 'FAILED'),
    );
    const read = (await api.get(`/webhook-endpoints/${endpoint.id}`)).json();
    expect(read.status).toBe('DISABLED');
    expect(read.disabledReason).toMatch(/^Every delivery failed for 2 days/);
    // events after that are not sent to it
    await quietCustomer(api);
    const sent = hooks.received.length;
    await waitFor(
      () =>
        server.ctx.db.query<{ n: bigint }>('SELECT count(*) AS n FROM events WHERE dispatched_at IS NULL'),
      (rows) => rows[0]!.n === 0n,
    );
    expect(await deliveries(api, endpoint.id)).toHaveLength(3);
    expect(hooks.received.length).toBe(sent);

    // a manual retry that succeeds shows the endpoint works again, and enables it
    hooks.respond = () => 200;
    const retried = await api.post(
      `/webhook-endpoints/${endpoint.id}/deliveries/${list[0]!.id}/retry`,
      undefined,
    );
    expect(retried.statusCode).toBe(202);
    await waitFor(
      () => api.get(`/webhook-endpoints/${endpoint.id}`).then((r) => r.json()),
      (e) => e.status === 'ENABLED' && e.disabledReason === null,
    );
  });
});
