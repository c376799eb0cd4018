/**
 * `GET /events` and `GET /events/{id}` (the outbox read back, with the webhook bodies), and the
 * sandbox's time routes: expire an AWAITING_FUNDS on-ramp now, expire a LOCKED quote now.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_VERSION } from '../../src/core/api-version.ts';
import { deliveryBody } from '../../src/modules/webhooks/presenter.ts';
import { approvedCustomer, createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { createOnRamp } from '../transactions/support.ts';

let server: TestServer;
let sandbox: Client;
let production: Client;
let stranger: Client;

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant();
  sandbox = client(server.sandbox, tenant.sandboxKey);
  production = client(server.production, tenant.productionKey);
  stranger = client(server.sandbox, (await server.newTenant('Stranger')).sandboxKey);
});
afterAll(() => server.close());

type Event = {
  eventId: string;
  eventType: string;
  createdAt: string;
  environment: string;
  data: { id: string };
};

describe('GET /events', () => {
  it("lists the environment's events newest first, filterable by type, with the webhook bodies", async () => {
    const first = await createCustomer(production, individualBody());
    const second = await createCustomer(production, individualBody());
    const page = (await production.get('/events?limit=50')).json();
    const created = page.data.filter((event: Event) => event.eventType === 'customer.created');
    expect(created.map((event: Event) => event.data.id).slice(0, 2)).toEqual([second.id, first.id]);
    expect(page.data[0]).toEqual({
      eventId: expect.any(String),
      eventType: expect.any(String),
      createdAt: expect.any(String),
      environment: 'production',
      apiVersion: DEFAULT_API_VERSION,
      data: expect.any(Object),
    });
    const newest = created[0] as Event;
    expect(newest.data).toEqual(second);
    // the same body a webhook carries
    const stored = (
      await server.ctx.db.query<{
        id: string;
        type: string;
        environment: 'production';
        created_at: Date;
        data: unknown;
      }>('SELECT id, type, environment, created_at, data FROM events WHERE id = $1', [newest.eventId])
    )[0]!;
    expect(JSON.parse(deliveryBody(stored))).toEqual(newest);

    const byType = (await production.get('/events?type=customer.created&limit=50')).json();
    expect(byType.data.every((event: Event) => event.eventType === 'customer.created')).toBe(true);
    expect(byType.pagination.total).toBe(created.length);
    expect((await production.get('/events?type=no.such')).statusCode).toBe(400);
  });

  it('pages by number and by keyset like every list', async () => {
    for (let i = 0; i < 3; i++) await createCustomer(production, individualBody());
    const all = (await production.get('/events?limit=50')).json().data.map((event: Event) => event.eventId);
    const walked: string[] = [];
    let cursor = '';
    for (;;) {
      const page = (await production.get(`/events?limit=2&startingAfter=${cursor}`)).json();
      walked.push(...page.data.map((event: Event) => event.eventId));
      if (!page.pagination.nextCursor) break;
      cursor = page.pagination.nextCursor;
    }
    expect(walked).toEqual(all);
    expect((await production.get('/events?limit=2')).json().pagination.nextCursor).toBe('2');
  });

  it('reads one event; another environment or project answers 404', async () => {
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    const listed = (await sandbox.get('/events?type=customer.created&limit=1')).json().data[0] as Event;
    expect(listed.data.id).toBe(customer.id);
    const read = await sandbox.get(`/events/${listed.eventId}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ ...listed, environment: 'sandbox' });
    expect((await production.get(`/events/${listed.eventId}`)).statusCode).toBe(404);
    expect((await stranger.get(`/events/${listed.eventId}`)).statusCode).toBe(404);
    expect((await stranger.get('/events?limit=50')).json().data).toEqual([]);
  });
});

describe('sandbox time', () => {
  it('expires an AWAITING_FUNDS on-ramp now, with the event of a natural expiry', async () => {
    const customer = await approvedCustomer(sandbox, individualBody());
    const ramp = await createOnRamp(sandbox, customer.id, '10.00');
    const expired = await sandbox.post(`/sandbox/transactions/${ramp.id}/expire`, {});
    expect(expired.statusCode).toBe(200);
    const view = expired.json();
    expect(view.status).toBe('EXPIRED');
    expect(Date.parse(view.depositInstructions.expiresAt)).toBeLessThan(
      Date.parse(ramp.depositInstructions.expiresAt),
    );
    expect(view.failureReason).toBe(`No deposit arrived before ${view.depositInstructions.expiresAt}`);
    expect(view.timeline.map((step: { status: string }) => step.status)).toEqual([
      'AWAITING_FUNDS',
      'EXPIRED',
    ]);
    const updates = (await sandbox.get('/events?type=transaction.updated&limit=50')).json().data as Event[];
    const event = updates.find((item) => item.data.id === ramp.id) as Event & { data: { status: string } };
    expect(event.data.status).toBe('EXPIRED');
    // the charge takes no deposit any more, and expires once
    expect((await sandbox.post(`/sandbox/transactions/${ramp.id}/deposit`, {})).statusCode).toBe(409);
    const again = await sandbox.post(`/sandbox/transactions/${ramp.id}/expire`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_state_transition');
    expect((await stranger.post(`/sandbox/transactions/${ramp.id}/expire`, {})).statusCode).toBe(404);
    expect((await production.post(`/sandbox/transactions/${ramp.id}/expire`, {})).statusCode).toBe(404);
  });

  it('expires a LOCKED quote now: using it then answers exchange_rate_expired', async () => {
    const customer = await approvedCustomer(sandbox, individualBody());
    const quote = (
      await sandbox.post('/exchange-rates', {
        type: 'LOCKED',
        sourceCurrency: 'BRL',
        targetCurrency: 'USDC',
        sourceAmount: '10.00',
        timeLock: '5m',
      })
    ).json();
    const expired = await sandbox.post(`/sandbox/exchange-rates/${quote.id}/expire`, {});
    expect(expired.statusCode).toBe(200);
    expect(Date.parse(expired.json().expiresAt)).toBeLessThan(Date.parse(quote.expiresAt));
    const used = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      exchangeRateId: quote.id,
    });
    expect(used.statusCode).toBe(409);
    expect(used.json().code).toBe('exchange_rate_expired');

    const floating = (
      await sandbox.post('/exchange-rates', {
        type: 'FLOATING',
        sourceCurrency: 'BRL',
        targetCurrency: 'USDC',
        sourceAmount: '10.00',
      })
    ).json();
    const refused = await sandbox.post(`/sandbox/exchange-rates/${floating.id}/expire`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('invalid_state_transition');
    expect((await stranger.post(`/sandbox/exchange-rates/${quote.id}/expire`, {})).statusCode).toBe(404);
  });
});
