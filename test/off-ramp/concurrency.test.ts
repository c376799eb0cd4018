/**
 * Money out under concurrency, on PostgreSQL, across two server processes sharing one database and one
 * PSP (the simulator): the balance reserve never overdraws, a LOCKED quote settles one transaction, a
 * send's result notified several times at once to both processes is applied once, and processes killed
 * between a send and its answer leave nothing stuck and nothing paid twice.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { individualBody, validCpf } from '../helpers/factories.ts';
import { usingPostgres } from '../helpers/server.ts';
import { type PonteProcess, stopPonte } from '../ops/ponte-process.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import { pspEnv, startSimulator } from '../psp/support.ts';
import { call, isolatedDatabase, keysOver, operator, poll, spawnPonte } from './processes.ts';

describe.runIf(usingPostgres())('money out on two server processes sharing one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof isolatedDatabase>>;
  let simulator: PspSimulator;
  let a: PonteProcess;
  let b: PonteProcess;
  let keys: Awaited<ReturnType<typeof keysOver>>;
  let env: NodeJS.ProcessEnv;
  const extra: PonteProcess[] = [];
  let db: pg.Client;

  beforeAll(async () => {
    database = await isolatedDatabase();
    // the PSP notifies whichever process is up, as a load balancer in front of them would; the TLS
    // terminator before it refuses a request without the PSP's client certificate (nginx: 400)
    let turn = 0;
    simulator = await startSimulator({
      deliver: async (url, body, { clientCertificate }) => {
        if (!clientCertificate) return 400;
        const up = [a, b, ...extra].filter(
          (p) => p && p.child.exitCode === null && p.child.signalCode === null,
        );
        if (up.length === 0) return 0;
        const target = up[turn++ % up.length]!;
        const response = await fetch(`${target.urls.production}${new URL(url).pathname}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await response.body?.cancel();
        return response.status;
      },
    });
    env = {
      DATABASE_URL: database.url,
      ...pspEnv(simulator, { PONTE_PIX_RECONCILE_EVERY_MS: '600000' }),
      // simulated chains confirm at once, so that an on-ramp completes within its deposit request
      PONTE_SANDBOX_CHAIN_CONFIRMATION_MS: '0',
      PONTE_RATE_LIMIT_PER_SECOND: '100000',
      PONTE_RATE_LIMIT_BURST: '100000',
    };
    a = await spawnPonte(env);
    b = await spawnPonte(env);
    keys = await keysOver(a);
    await poll(
      async () => simulator.webhooks.size,
      (n) => n === 1,
    );
    await operator(a, '/operator/rates', { pair: 'BRL/USDC', rate: '0.2' });
    await operator(a, '/operator/rates', { pair: 'USDC/BRL', rate: '5' });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a, b, ...extra].map(stopPonte));
    await db?.end();
    await simulator?.close();
    await database?.drop();
  });

  const sandbox = (p: PonteProcess) => ({
    get: (path: string) => call(p.urls.sandbox, 'GET', path, keys.sandbox),
    post: (path: string, body: unknown) => call(p.urls.sandbox, 'POST', path, keys.sandbox, body),
  });
  const production = (p: PonteProcess) => ({
    get: (path: string) => call(p.urls.production, 'GET', path, keys.production),
    post: (path: string, body: unknown) => call(p.urls.production, 'POST', path, keys.production, body),
  });
  type Api = ReturnType<typeof sandbox>;
  /** A process still running (the first one is killed by one of the tests). */
  const live = () => [a, ...extra, b].find((p) => p.child.exitCode === null && p.child.signalCode === null)!;

  async function selfAccount(api: Api, customer: { id: string; name: string; taxId: string; email: string }) {
    const account = await api.post('/bank-accounts', {
      customerId: customer.id,
      name: 'Conta',
      rail: 'PIX',
      currency: 'BRL',
      identifier: { keyType: 'CPF', keyValue: customer.taxId },
      holder: {
        type: 'INDIVIDUAL',
        relationship: 'SELF',
        legalName: customer.name,
        taxId: customer.taxId,
        email: customer.email,
        address: {
          line1: 'Rua A, 1',
          city: 'São Paulo',
          state: 'SP',
          postalCode: '01310-100',
          country: 'BRA',
        },
      },
    });
    expect(account.status).toBe(201);
    expect(account.body.holder.verification.status).toBe('APPROVED');
    return account.body.id as string;
  }

  /** A sandbox customer approved by the simulation, with a SELF account and USDC from a 1000.00 on-ramp. */
  async function fundedSandboxCustomer() {
    const api = sandbox(live());
    const customer = (await api.post('/customers', individualBody({ taxId: validCpf('5') }))).body;
    await poll(
      () => api.get(`/customers/${customer.id}`),
      (r) => r.body.verification.status === 'APPROVED',
    );
    const accountId = await selfAccount(api, customer);
    const onRamp = (
      await api.post('/transactions/on-ramp', { customerId: customer.id, currency: 'BRL', amount: '1000.00' })
    ).body;
    expect((await api.post(`/sandbox/transactions/${onRamp.id}/deposit`, {})).body.status).toBe('SUCCESS');
    return { customerId: customer.id as string, accountId };
  }

  /** A production customer (approved as a compliance review would), a SELF account, USDC from a PIX deposit. */
  async function fundedProductionCustomer() {
    const api = production(live());
    const customer = (await api.post('/customers', individualBody({ taxId: validCpf() }))).body;
    await db.query(`UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1`, [customer.id]);
    const accountId = await selfAccount(api, customer);
    const created = await api.post('/transactions/on-ramp', {
      customerId: customer.id,
      currency: 'BRL',
      amount: '1000.00',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const onRamp = created.body;
    // the payer pays the charge registered at the PSP; the PSP notifies, Ponte confirms and settles
    await simulator.pay(onRamp.id.replace(/-/g, ''));
    await poll(
      () => api.get(`/transactions/${onRamp.id}`),
      (r) => r.body.status === 'SUCCESS',
    );
    return { customerId: customer.id as string, accountId };
  }

  /** Every PUT of one send the PSP received. */
  const putsOf = (sendId: string) =>
    simulator.calls.filter((c) => c.method === 'PUT' && c.path === `/v3/gn/pix/${sendId}`).length;

  const usdc = async (api: Api, customerId: string) =>
    (await api.get(`/customers/${customerId}/balances`)).body.balances.find(
      (x: { currency: string }) => x.currency === 'USDC',
    ).amount as string;
  const micro = (text: string) => BigInt(text.replace('.', ''));
  const asUsdc = (units: bigint) =>
    `${units / 1_000_000n}.${(units % 1_000_000n).toString().padStart(6, '0')}`;

  it('10 concurrent off-ramps of a quarter of the balance each: at most 4 accepted, the rest 422 insufficient_funds, the balance exact', async () => {
    const { customerId, accountId } = await fundedSandboxCustomer();
    const start = micro(await usdc(sandbox(a), customerId));
    const quarter = start / 4n;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        sandbox(i % 2 === 0 ? a : b).post('/transactions/off-ramp', {
          customerId,
          bankAccountId: accountId,
          sourceCurrency: 'USDC',
          sourceAmount: asUsdc(quarter),
          purpose: 'PERSONAL_ACCOUNT',
        }),
      ),
    );
    const accepted = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(accepted.length).toBeLessThanOrEqual(4);
    expect(accepted.length).toBe(4);
    for (const r of refused) {
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('insufficient_funds');
    }
    for (const r of accepted) {
      const done = await poll(
        () => sandbox(b).get(`/transactions/${r.body.id}`),
        (t) => t.body.status === 'SUCCESS' || t.body.status === 'FAILED',
      );
      expect(done.body.status).toBe('SUCCESS');
    }
    const end = micro(await usdc(sandbox(b), customerId));
    expect(end).toBe(start - BigInt(accepted.length) * quarter);
    expect(end >= 0n).toBe(true);
    const ledger = await db.query(
      `SELECT (-sum(amount))::text AS total FROM ledger_entries WHERE customer_id = $1 AND currency = 'USDC'`,
      [customerId],
    );
    expect(BigInt(ledger.rows[0].total)).toBe(end);
  });

  it('a LOCKED quote used by 5 concurrent requests on both processes settles exactly one transaction', async () => {
    const { customerId, accountId } = await fundedSandboxCustomer();
    const quote = (
      await sandbox(a).post('/exchange-rates', {
        type: 'LOCKED',
        sourceCurrency: 'USDC',
        targetCurrency: 'BRL',
        sourceAmount: '10',
        timeLock: '5m',
      })
    ).body;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        sandbox(i % 2 === 0 ? a : b).post('/transactions/off-ramp', {
          customerId,
          bankAccountId: accountId,
          exchangeRateId: quote.id,
          purpose: 'PERSONAL_ACCOUNT',
        }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('exchange_rate_used');
    }
    const rows = await db.query('SELECT count(*)::int AS n FROM transactions WHERE exchange_rate_id = $1', [
      quote.id,
    ]);
    expect(rows.rows[0].n).toBe(1);
  });

  it('a send result notified 5 times at once, to both processes, is applied once', async () => {
    const { customerId, accountId } = await fundedProductionCustomer();
    const before = micro(await usdc(production(a), customerId));
    simulator.faults.drop = true;
    const created = await production(a).post('/transactions/off-ramp', {
      customerId,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '1',
      purpose: 'PERSONAL_ACCOUNT',
    });
    expect(created.status).toBe(201);
    const sendId = created.body.id.replace(/-/g, '');
    await poll(
      async () => simulator.sends.get(sendId)?.status,
      (status) => status === 'REALIZADO',
    );
    simulator.faults.drop = false;
    const send = simulator.sends.get(sendId)!;
    const item = {
      endToEndId: send.e2eId,
      valor: send.valor,
      horario: new Date().toISOString(),
      status: 'REALIZADO',
      gnExtras: { idEnvio: sendId },
    };
    await Promise.all(Array.from({ length: 5 }, () => simulator.notifyRaw(send.chave, [item])));
    const done = await poll(
      () => production(b).get(`/transactions/${created.body.id}`),
      (t) => t.body.status === 'SUCCESS',
    );
    expect(done.body.payout.endToEndId).toBe(send.e2eId);
    const journals = await db.query(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE kind = 'PAYOUT_SENT' AND transaction_id = $1`,
      [created.body.id],
    );
    expect(journals.rows[0].n).toBe(1);
    expect(micro(await usdc(production(a), customerId))).toBe(before - 1_000_000n);
    expect(putsOf(sendId)).toBe(1);
  });

  it('SIGKILL of every process between the send and its answer: after restart the send is looked up, not sent again, and paid once', async () => {
    const { customerId, accountId } = await fundedProductionCustomer();
    const before = micro(await usdc(production(a), customerId));
    simulator.faults.drop = true;
    let killed = false;
    simulator.hooks.beforeAnswer = async (method, path) => {
      if (method !== 'PUT' || !path.startsWith('/v3/gn/pix/') || killed) return;
      killed = true;
      for (const p of [a, b, ...extra]) p.child.kill('SIGKILL');
      await Promise.all([a, b, ...extra].map((p) => p.exited));
    };
    const created = await production(a).post('/transactions/off-ramp', {
      customerId,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '1',
      purpose: 'PERSONAL_ACCOUNT',
    });
    expect(created.status).toBe(201);
    const sendId = created.body.id.replace(/-/g, '');
    await poll(
      async () => killed && simulator.sends.has(sendId),
      (done) => done,
    );
    simulator.hooks.beforeAnswer = undefined;
    expect((await a.exited).signal).toBe('SIGKILL');
    const restarted = await spawnPonte(env);
    extra.push(restarted);
    // after the claim's lease, the payout is tried again: looked up first, found REALIZADO, settled
    const done = await poll(
      () => production(restarted).get(`/transactions/${created.body.id}`),
      (t) => t.body.status === 'SUCCESS',
      30_000,
    );
    simulator.faults.drop = false;
    expect(putsOf(sendId)).toBe(1);
    expect(simulator.calls.some((c) => c.path === `/v2/gn/pix/enviados/id-envio/${sendId}`)).toBe(true);
    expect(done.body.payout.endToEndId).toBe(simulator.sends.get(sendId)!.e2eId);
    expect(micro(await usdc(production(restarted), customerId))).toBe(before - 1_000_000n);
    const journals = await db.query(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE kind = 'PAYOUT_SENT' AND transaction_id = $1`,
      [created.body.id],
    );
    expect(journals.rows[0].n).toBe(1);
    // the other process comes back too, for the tests after this one
    b = await spawnPonte(env);
  });

  it('a send the PSP refuses at once FAILS with its reason and the reserve released', async () => {
    const api = production(live());
    const { customerId, accountId } = await fundedProductionCustomer();
    const before = micro(await usdc(api, customerId));
    const created = await api.post('/transactions/off-ramp', {
      customerId,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '10',
      purpose: 'PERSONAL_ACCOUNT',
    });
    const done = await poll(
      () => api.get(`/transactions/${created.body.id}`),
      (t) => t.body.status === 'FAILED',
    );
    expect(done.body.failureReason).toMatch(/refused it: .*acima de 20,00/);
    expect(micro(await usdc(api, customerId))).toBe(before);
    const unbalanced = await db.query(
      'SELECT journal_id FROM ledger_entries GROUP BY journal_id, currency HAVING sum(amount) <> 0',
    );
    expect(unbalanced.rows).toEqual([]);
  });
});
