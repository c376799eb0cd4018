/**
 * The reconciliation sweep: with notifications lost, every payment still lands within one sweep, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcilePix, sweepEnvironment } from '../../src/modules/pix/sweep.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import {
  expectNoViolations,
  pspEnv,
  startSimulator,
  terminatedDelivery,
  WEBHOOK_URL,
} from '../psp/support.ts';
import { createOnRamp, type IsolatedServer, setRate, startIsolatedServer } from '../transactions/support.ts';

let server: IsolatedServer;
let simulator: PspSimulator;
let production: Client;

beforeAll(async () => {
  simulator = await startSimulator({
    maxPageSize: 2,
    deliver: terminatedDelivery(() => server?.production),
  });
  server = await startIsolatedServer({
    workers: false,
    env: pspEnv(simulator, { PONTE_PIX_RECONCILE_EVERY_MS: '1' }),
  });
  await server.ctx.pix.psp('production')!.registerWebhook();
  production = client(server.production, (await server.newTenant()).productionKey);
  await setRate(server, 'BRL/USDC', '0.2');
});
afterAll(async () => {
  await server.close();
  await simulator.close();
});
expectNoViolations(() => simulator);

async function charge(amount: string) {
  const customer = (await production.post('/customers', individualBody())).json();
  await server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
    customer.id,
  ]);
  return createOnRamp(production, customer.id, amount);
}
const txidOf = (transaction: { id: string }) => transaction.id.replace(/-/g, '');
const status = async (id: string) => (await production.get(`/transactions/${id}`)).json().status;
const journals = async (id: string) =>
  (
    await server.ctx.db.query<{ n: bigint }>(
      "SELECT count(*) AS n FROM ledger_journals WHERE transaction_id = $1 AND kind = 'DEPOSIT_RECEIVED'",
      [id],
    )
  )[0]!.n;
async function lostPayment(transaction: { id: string }, valor?: string) {
  simulator.faults.drop = true;
  try {
    return await simulator.pay(txidOf(transaction), valor);
  } finally {
    simulator.faults.drop = false;
  }
}

describe('the PIX reconciliation sweep', () => {
  it('applies every payment whose notification was lost, reading every page of the listing', async () => {
    const transactions = await Promise.all(['10.00', '11.00', '12.00', '13.00', '14.00'].map(charge));
    for (const transaction of transactions) await lostPayment(transaction);
    for (const transaction of transactions) expect(await status(transaction.id)).toBe('AWAITING_FUNDS');
    const result = await sweepEnvironment(server.ctx, 'production');
    expect(result).toMatchObject({ complete: true });
    expect(result!.calls).toBeGreaterThanOrEqual(3); // five PIX, two to a page
    for (const transaction of transactions) expect(await status(transaction.id)).toBe('SUCCESS');
  });

  it('applies each payment once however often sweeps and notifications see it', async () => {
    const transaction = await charge('20.00');
    const e2e = await lostPayment(transaction);
    await sweepEnvironment(server.ctx, 'production');
    await sweepEnvironment(server.ctx, 'production');
    await simulator.notifyRaw(simulator.charges.get(txidOf(transaction))!.chave, [{ endToEndId: e2e }]);
    await server.ctx.pix.settled();
    await sweepEnvironment(server.ctx, 'production');
    expect(await journals(transaction.id)).toBe(1n);
    expect(await status(transaction.id)).toBe('SUCCESS');
  });

  it('leaves its window to the next sweep when a page cannot be read, and that one applies what was missed', async () => {
    const transaction = await charge('21.00');
    await lostPayment(transaction);
    const [before] = await server.ctx.db.query<{ swept_to: Date }>(
      "SELECT swept_to FROM pix_sweeps WHERE environment = 'production'",
    );
    simulator.fail(/^GET \/v2\/pix$/, 503);
    const failed = await sweepEnvironment(server.ctx, 'production');
    expect(failed).toMatchObject({ complete: false });
    const [after] = await server.ctx.db.query<{ swept_to: Date; last_error: string }>(
      "SELECT swept_to, last_error FROM pix_sweeps WHERE environment = 'production'",
    );
    expect(after!.swept_to).toEqual(before!.swept_to);
    expect(after!.last_error).toMatch(/could not be read/);
    await eventually(
      async () => (await sweepEnvironment(server.ctx, 'production'))?.complete,
      (complete) => complete === true,
    );
    expect(await status(transaction.id)).toBe('SUCCESS');
  });

  it('shows operators the rail in /metrics: PSP calls by route and outcome, token refreshes, the sweep lag', async () => {
    await sweepEnvironment(server.ctx, 'production');
    const text = (
      await server.operator.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${server.operatorToken}` },
      })
    ).body;
    expect(text).toMatch(
      /ponte_pix_psp_calls_total\{environment="production",route="GET \/pix",outcome="2xx"\} \d+/,
    );
    expect(text).toMatch(
      /ponte_pix_psp_calls_total\{environment="production",route="GET \/pix",outcome="5xx"\} \d+/,
    );
    expect(text).toMatch(/ponte_pix_psp_token_refreshes_total\{environment="production"\} [1-9]/);
    expect(text).toMatch(/ponte_pix_sweep_lag_seconds\{environment="production"\} [\d.e+-]+/);
    expect(text).toMatch(/ponte_pix_pending_sends\{environment="production"\} 0/);
    expect(text).toMatch(/ponte_pix_oldest_pending_send_age_seconds\{environment="production"\} 0/);
  });

  it('is run by one process at a time: a sweep under way holds its lease', async () => {
    const results = await Promise.all([
      sweepEnvironment(server.ctx, 'production'),
      sweepEnvironment(server.ctx, 'production'),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('reaches back over the previous window with an overlap, so a PIX listed late is still applied', async () => {
    await sweepEnvironment(server.ctx, 'production');
    const transaction = await charge('22.00');
    const e2e = await lostPayment(transaction);
    // the PSP lists the PIX with a settlement time a little before the previous sweep's end
    simulator.received.get(e2e)!.horario = new Date(Date.now() - 60_000).toISOString();
    await reconcilePix(server.ctx);
    expect(await status(transaction.id)).toBe('SUCCESS');
  });
});

describe('the PIX reconciliation worker', () => {
  it('brings in a payment whose notification was lost within one sweep interval', async () => {
    const worker = await startIsolatedServer({
      env: pspEnv(simulator, {
        PONTE_PIX_RECONCILE_EVERY_MS: '200',
        PONTE_PIX_WEBHOOK_URL: `${WEBHOOK_URL}/other`,
      }),
    });
    try {
      const api = client(worker.production, (await worker.newTenant()).productionKey);
      await setRate(worker, 'BRL/USDC', '0.2');
      const customer = (await api.post('/customers', individualBody())).json();
      await worker.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
        customer.id,
      ]);
      const transaction = await createOnRamp(api, customer.id, '23.00');
      await lostPayment(transaction);
      await eventually(
        async () => (await api.get(`/transactions/${transaction.id}`)).json().status,
        (value) => value === 'SUCCESS',
        10_000,
      );
    } finally {
      await worker.close();
    }
  });
});
