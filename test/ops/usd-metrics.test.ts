/**
 * The USD rail in `/metrics` (docs/RUNBOOK.md, PonteUsdSweepLagging and PonteUsdReturnsPendingTooLong):
 * inbound transfers by environment, rail and outcome, the age of the last complete sweep of inbound
 * transfers, and the returns the bank has not accepted yet, read from the database when scraped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';

let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startIsolatedServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

const scrape = async () => (await server.operator.inject({ method: 'GET', url: '/metrics' })).body;
const sample = (body: string, series: string) => {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('the USD rail in /metrics', () => {
  it('counts inbound transfers by environment, rail and outcome', async () => {
    const customer = await approvedCustomer(sandbox);
    const account = (await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).json();
    const deposit = (body: object) => sandbox.post(`/sandbox/accounts/${account.id}/deposit`, body);
    expect((await deposit({ amount: '10.00' })).json().outcome).toBe('APPLIED');
    expect((await deposit({ amount: '11.00' })).json().outcome).toBe('APPLIED');
    expect((await deposit({ amount: '12.00', rail: 'WIRE' })).json().outcome).toBe('APPLIED');
    expect((await sandbox.delete(`/accounts/${account.id}`)).statusCode).toBe(200);
    expect((await deposit({ amount: '13.00', rail: 'WIRE' })).json().outcome).toBe('RETURNED');

    const body = await scrape();
    expect(
      sample(body, 'ponte_usd_inbound_transfers{environment="sandbox",rail="ACH",outcome="APPLIED"}'),
    ).toBe(2);
    expect(
      sample(body, 'ponte_usd_inbound_transfers{environment="sandbox",rail="WIRE",outcome="APPLIED"}'),
    ).toBe(1);
    expect(
      sample(body, 'ponte_usd_inbound_transfers{environment="sandbox",rail="WIRE",outcome="RETURNED"}'),
    ).toBe(1);
    expect(body).not.toContain('ponte_usd_inbound_transfers{environment="production"');
    // the sandbox's simulated bank has no one to return to: no return of it is pending
    expect(sample(body, 'ponte_usd_pending_returns{environment="sandbox"}')).toBe(0);
  });

  it('reports the age of the last complete sweep per environment, none before the first', async () => {
    expect(await scrape()).not.toContain('ponte_usd_sweep_lag_seconds{environment="production"}');
    const sweptAt = new Date(server.ctx.clock().getTime() - 120_000);
    await server.ctx.db.query(
      `INSERT INTO bank_sweeps (bank, environment, swept_through, swept_at) VALUES ('INCREASE', 'production', $1, $1)
       ON CONFLICT (bank, environment) DO UPDATE SET swept_through = $1, swept_at = $1`,
      [sweptAt],
    );
    const lag = sample(await scrape(), 'ponte_usd_sweep_lag_seconds{environment="production"}');
    expect(lag).toBeGreaterThanOrEqual(120);
    expect(lag).toBeLessThan(180);
  });

  it('reports the returns the bank has not accepted yet and the age of the oldest', async () => {
    const receivedAt = new Date(server.ctx.clock().getTime() - 3_600_000);
    await server.ctx.db.query(
      `INSERT INTO inbound_bank_transfers (bank, bank_transfer_id, environment, rail, amount, outcome, return_reason,
         payload, received_at)
       VALUES ('INCREASE', 'inbound_ach_transfer_unaccepted', 'production', 'ACH', 2500, 'RETURNED',
         'No account with this number', '{}', $1),
              ('INCREASE', 'inbound_ach_transfer_accepted', 'production', 'ACH', 2500, 'RETURNED',
         'No account with this number', '{}', $1)`,
      [receivedAt],
    );
    await server.ctx.db.query(
      "UPDATE inbound_bank_transfers SET returned_at = now() WHERE bank_transfer_id = 'inbound_ach_transfer_accepted'",
    );
    const body = await scrape();
    expect(sample(body, 'ponte_usd_pending_returns{environment="production"}')).toBe(1);
    const age = sample(body, 'ponte_usd_oldest_pending_return_age_seconds{environment="production"}');
    expect(age).toBeGreaterThanOrEqual(3600);
    expect(age).toBeLessThan(3700);
    expect(
      sample(body, 'ponte_usd_inbound_transfers{environment="production",rail="ACH",outcome="RETURNED"}'),
    ).toBe(2);
  });
});
