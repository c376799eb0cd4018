/**
 * The USD rail in `/metrics` (docs/RUNBOOK.md, PonteUsdSweepLagging, PonteUsdReturnsPendingTooLong and
 * PonteUsdPayoutsPendingTooLong): inbound transfers by environment, rail and outcome, the age of the last
 * complete sweep of inbound transfers, the returns the bank has not accepted yet, and the payouts by rail
 * and status with the age of the oldest still open, read from the database when scraped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { fund, offRamp, settled } from '../off-ramp/support.ts';
import { usAccount } from '../off-ramp/usd-support.ts';
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

  it('counts USD payouts by environment, rail and status, and the age of the oldest still open', async () => {
    const customer = await approvedCustomer(sandbox);
    await fund(sandbox, customer.id, '1000.00');
    const ach = await usAccount(sandbox, customer, 'ACH');
    const wire = await usAccount(sandbox, customer, 'WIRE');
    const pay = async (bankAccountId: string, sourceAmount: string) =>
      settled(
        sandbox,
        (
          await offRamp(sandbox, {
            customerId: customer.id,
            bankAccountId,
            sourceCurrency: 'USDC',
            sourceAmount,
          })
        ).json().id,
      );
    expect((await pay(ach, '10')).status).toBe('SUCCESS');
    expect((await pay(ach, '10.13')).status).toBe('FAILED');
    const open = await pay(wire, '10');
    let body = await scrape();
    expect(sample(body, 'ponte_usd_payouts{environment="sandbox",rail="ACH",status="COMPLETED"}')).toBe(1);
    expect(sample(body, 'ponte_usd_payouts{environment="sandbox",rail="ACH",status="REJECTED"}')).toBe(1);
    expect(sample(body, 'ponte_usd_payouts{environment="sandbox",rail="WIRE",status="COMPLETED"}')).toBe(1);
    expect(sample(body, 'ponte_usd_oldest_open_payout_age_seconds{environment="sandbox"}')).toBe(0);
    // the wire as the bank would leave it for two hours: accepted, its result not in yet
    await server.ctx.db.query(
      `UPDATE pix_payouts SET status = 'SUBMITTED', check_at = $2, created_at = $3 WHERE transaction_id = $1`,
      [open.id, new Date(Date.now() + 86_400_000), new Date(Date.now() - 7_200_000)],
    );
    body = await scrape();
    expect(sample(body, 'ponte_usd_payouts{environment="sandbox",rail="WIRE",status="SUBMITTED"}')).toBe(1);
    const age = sample(body, 'ponte_usd_oldest_open_payout_age_seconds{environment="sandbox"}')!;
    expect(age).toBeGreaterThanOrEqual(7_200);
    expect(age).toBeLessThan(7_300);
  });
});
