/**
 * A USD payout across a crash, on PostgreSQL: two real Ponte processes over a database of their own, their
 * sandbox banking at the Increase simulator (in the test's process). Every process is killed (SIGKILL)
 * once Increase made the ACH transfer and before its answer left; after a restart the payout is looked up
 * by its idempotency key (https://increase.com/documentation/idempotency-keys: `GET /ach_transfers` with
 * `idempotency_key`, https://increase.com/documentation/api/ach-transfers#list), not sent again, and
 * succeeds once Increase reports it settled (https://increase.com/documentation/ach-transfers), booked once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import { individualBody } from '../helpers/factories.ts';
import { usingPostgres } from '../helpers/server.ts';
import {
  type IncreaseSimulator,
  SIMULATOR_ACCOUNT_ID,
  SIMULATOR_API_KEY,
  startIncreaseSimulator,
} from '../increase/simulator.ts';
import { call, isolatedDatabase, keysOver, poll, spawnPonte } from '../off-ramp/processes.ts';
import { usAccountBody } from '../off-ramp/usd-support.ts';
import { type PonteProcess, stopPonte } from '../ops/ponte-process.ts';

const SECRET = 'crash-webhook-secret';

describe.runIf(usingPostgres())('a USD payout at Increase across SIGKILL of every process', () => {
  let database: Awaited<ReturnType<typeof isolatedDatabase>>;
  let sim: IncreaseSimulator;
  let env: NodeJS.ProcessEnv;
  let keys: Awaited<ReturnType<typeof keysOver>>;
  const processes: PonteProcess[] = [];
  let db: pg.Client;

  beforeAll(async () => {
    database = await isolatedDatabase();
    sim = await startIncreaseSimulator({ webhookSecret: SECRET });
    env = {
      DATABASE_URL: database.url,
      PONTE_SANDBOX_USD_BANK: 'increase',
      PONTE_SANDBOX_INCREASE_URL: sim.url,
      PONTE_SANDBOX_INCREASE_API_KEY: SIMULATOR_API_KEY,
      PONTE_SANDBOX_INCREASE_ACCOUNT_ID: SIMULATOR_ACCOUNT_ID,
      PONTE_SANDBOX_INCREASE_WEBHOOK_SECRET: SECRET,
      PONTE_SANDBOX_CHAIN_CONFIRMATION_MS: '0',
      PONTE_RATE_LIMIT_PER_SECOND: '100000',
      PONTE_RATE_LIMIT_BURST: '100000',
    };
    processes.push(await spawnPonte(env), await spawnPonte(env));
    keys = await keysOver(processes[0]!);
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 300_000);

  afterAll(async () => {
    await Promise.all(processes.map(stopPonte));
    await db?.end();
    await sim?.close();
    await database?.drop();
  });

  const up = () => processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
  const api = (p: PonteProcess) => ({
    get: (path: string) => call(p.urls.sandbox, 'GET', path, keys.sandbox),
    post: (path: string, body: unknown) => call(p.urls.sandbox, 'POST', path, keys.sandbox, body),
  });
  /** Increase's webhooks go to a running process's sandbox listener. */
  const deliverTo = (p: PonteProcess) => sim.setWebhookUrl(`${p.urls.sandbox}/webhooks/increase`);

  it('after the restart the transfer is found by its key, not made again, and settles once', async () => {
    const [a] = processes as [PonteProcess, PonteProcess];
    deliverTo(a);
    const sandbox = api(a);
    const customer = (await sandbox.post('/customers', individualBody())).body;
    await poll(
      () => sandbox.get(`/customers/${customer.id}`),
      (r) => r.body.verification.status === 'APPROVED',
    );
    const onRamp = (
      await sandbox.post('/transactions/on-ramp', {
        customerId: customer.id,
        currency: 'BRL',
        amount: '1000.00',
      })
    ).body;
    expect((await sandbox.post(`/sandbox/transactions/${onRamp.id}/deposit`, {})).body.status).toBe(
      'SUCCESS',
    );
    const account = await sandbox.post('/bank-accounts', usAccountBody(customer));
    expect(account.status, JSON.stringify(account.body)).toBe(201);

    let killed = false;
    sim.hooks.beforeAnswer = async (method, path) => {
      if (method !== 'POST' || path !== '/ach_transfers' || killed) return;
      killed = true;
      const running = up();
      for (const p of running) p.child.kill('SIGKILL');
      await Promise.all(running.map((p) => p.exited));
    };
    // the process may die before it answers the off-ramp itself
    await sandbox
      .post('/transactions/off-ramp', {
        customerId: customer.id,
        bankAccountId: account.body.id,
        sourceCurrency: 'USDC',
        sourceAmount: '100',
        purpose: 'PERSONAL_ACCOUNT',
      })
      .catch(() => undefined);
    await poll(
      async () => killed && sim.achTransfers.size === 1,
      (done) => done,
    );
    const killedOnes = [...processes];
    expect((await Promise.all(killedOnes.map((p) => p.exited))).map((e) => e.signal)).toEqual([
      'SIGKILL',
      'SIGKILL',
    ]);
    sim.hooks.beforeAnswer = undefined;
    const [transfer] = [...sim.achTransfers.values()];
    const offRampId = transfer!.idempotency_key!.replace(/^ponte-payout-/, '');
    const rows = await db.query("SELECT id FROM transactions WHERE customer_id = $1 AND type = 'OFF_RAMP'", [
      customer.id,
    ]);
    expect(rows.rows.map((r) => r.id)).toEqual([offRampId]);

    const restarted = await spawnPonte(env);
    processes.push(restarted, await spawnPonte(env));
    deliverTo(restarted);
    const creates = () => sim.requests.filter((r) => r.method === 'POST' && r.path === '/ach_transfers');
    // after the claim's lease the payout is tried again: looked up by its key, found, not sent again
    await poll(
      () => db.query('SELECT status FROM pix_payouts WHERE end_to_end_id = $1', [transfer!.idempotency_key]),
      (r) => r.rows[0]?.status === 'SUBMITTED',
      30_000,
    );
    expect(creates()).toHaveLength(1);
    const byKey = new URLSearchParams({ idempotency_key: transfer!.idempotency_key! }).toString();
    expect(
      sim.requests.some((r) => r.method === 'GET' && r.path === '/ach_transfers' && r.query.includes(byKey)),
    ).toBe(true);
    const simulate = createIncreaseSimulations({
      url: new URL(sim.url),
      apiKey: SIMULATOR_API_KEY,
      accountId: SIMULATOR_ACCOUNT_ID,
      webhookSecret: SECRET,
      maxRetries: 0,
    });
    await simulate.settleAch(transfer!.id);
    await sim.settled();
    const done = await poll(
      () => api(restarted).get(`/transactions/${offRampId}`),
      (t) => t.body.status === 'SUCCESS',
      30_000,
    );
    expect(done.body.payout.rail).toBe('ACH');
    expect(creates()).toHaveLength(1);
    expect([...sim.achTransfers.values()]).toHaveLength(1);
    const journals = await db.query(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE kind = 'PAYOUT_SENT' AND transaction_id = $1`,
      [offRampId],
    );
    expect(journals.rows[0].n).toBe(1);
    const unbalanced = await db.query(
      'SELECT journal_id FROM ledger_entries GROUP BY journal_id, currency HAVING sum(amount) <> 0',
    );
    expect(unbalanced.rows).toEqual([]);
    expect(sim.violations).toEqual([]);
  }, 120_000);
});
