/**
 * Test servers share one database per run (PostgreSQL) or per worker process (PGlite). A server whose
 * clock runs days ahead, with its workers on, must not expire, sweep or purge what other servers made:
 * its workers see only a database of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueTransactions } from '../../src/modules/on-ramp/expiry.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';

const DAY = 24 * 3600_000;

let shared: TestServer;
let ahead: TestServer;
let sandbox: Client;

beforeAll(async () => {
  shared = await startTestServer();
  sandbox = client(shared.sandbox, (await shared.newTenant('Relógio comum')).sandboxKey);
  ahead = await startTestServer({ clock: () => new Date(Date.now() + 8 * DAY) });
}, 60_000);

afterAll(async () => {
  await ahead?.close();
  await shared?.close();
});

describe('a test server on a clock of its own', () => {
  it("expires nothing another server's tests are waiting on", async () => {
    const payer = await approvedCustomer(sandbox);
    const onRamp = (
      await sandbox.post('/transactions/on-ramp', { customerId: payer.id, currency: 'BRL', amount: '10.00' })
    ).json();
    expect(onRamp.status).toBe('AWAITING_FUNDS');

    // what the server eight days ahead runs on every tick of its expiry worker
    await expireDueTransactions(ahead.ctx.db, ahead.ctx.clock);

    expect((await sandbox.get(`/transactions/${onRamp.id}`)).json().status).toBe('AWAITING_FUNDS');
  });
});
