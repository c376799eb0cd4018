/**
 * Money out under concurrency, on PostgreSQL, across two server processes sharing one database: the
 * balance reserve never overdraws, a LOCKED quote settles one transaction, a payout result delivered
 * several times at once is applied once, and a process killed between the reserve and the payout
 * leaves nothing stuck and nothing paid twice.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmvFields } from '../../src/lib/pix-brcode.ts';
import { individualBody, validCpf } from '../helpers/factories.ts';
import { usingPostgres } from '../helpers/server.ts';
import { type PonteProcess, stopPonte } from '../ops/ponte-process.ts';
import {
  call,
  fakeProvider,
  isolatedDatabase,
  keysOver,
  notifyDeposit,
  notifyPayouts,
  operator,
  poll,
  SECRET,
  spawnPonte,
} from './processes.ts';

const PIX_KEY = 'f3a9c1d2-4b5e-4f60-8a7b-9c0d1e2f3a4b';

describe.runIf(usingPostgres())('money out on two server processes sharing one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof isolatedDatabase>>;
  let provider: Awaited<ReturnType<typeof fakeProvider>>;
  let a: PonteProcess;
  let b: PonteProcess;
  let keys: Awaited<ReturnType<typeof keysOver>>;
  let env: NodeJS.ProcessEnv;
  const extra: PonteProcess[] = [];
  let db: pg.Client;

  beforeAll(async () => {
    database = await isolatedDatabase();
    provider = await fakeProvider();
    env = {
      DATABASE_URL: database.url,
      PONTE_PIX_PROVIDER_SECRET: SECRET,
      PONTE_PIX_PAYOUT_URL: provider.url,
      PONTE_PIX_ISPB: '12345678',
      PONTE_PIX_KEY: PIX_KEY,
      // simulated chains confirm at once, so that an on-ramp completes within its deposit request
      PONTE_SANDBOX_CHAIN_CONFIRMATION_MS: '0',
      PONTE_RATE_LIMIT_PER_SECOND: '100000',
      PONTE_RATE_LIMIT_BURST: '100000',
    };
    a = await spawnPonte(env);
    b = await spawnPonte(env);
    keys = await keysOver(a);
    await operator(a, '/operator/rates', { pair: 'BRL/USDC', rate: '0.2' });
    await operator(a, '/operator/rates', { pair: 'USDC/BRL', rate: '5' });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a, b, ...extra].map(stopPonte));
    await db?.end();
    await provider?.close();
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
    const onRamp = (
      await api.post('/transactions/on-ramp', { customerId: customer.id, currency: 'BRL', amount: '1000.00' })
    ).body;
    const txid = readEmvFields(readEmvFields(onRamp.depositInstructions.brCode).get('62')!).get('05')!;
    const e2e = `E99999999202601011200${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`;
    const deposited = await notifyDeposit(live(), {
      endToEndId: e2e,
      txid,
      valor: '1000.00',
      horario: new Date().toISOString(),
    });
    expect(deposited.body.results[0].outcome).toBe('APPLIED');
    await poll(
      () => api.get(`/transactions/${onRamp.id}`),
      (r) => r.body.status === 'SUCCESS',
    );
    return { customerId: customer.id as string, accountId };
  }

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

  it('a payout result delivered 5 times at once, to both processes, is applied once', async () => {
    provider.setMode('accept');
    const { customerId, accountId } = await fundedProductionCustomer();
    const before = micro(await usdc(production(a), customerId));
    const created = await production(a).post('/transactions/off-ramp', {
      customerId,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '50',
      purpose: 'PERSONAL_ACCOUNT',
    });
    expect(created.status).toBe(201);
    const sent = await poll(
      () => production(b).get(`/transactions/${created.body.id}`),
      (t) => t.body.status === 'TRANSFERRING_FIAT',
    );
    const e2e = sent.body.payout.endToEndId as string;
    expect(e2e).toMatch(/^E12345678\d{12}[A-Za-z0-9]{11}$/);
    await poll(
      async () => provider.received.filter((r) => r.endToEndId === e2e),
      (seen) => seen.length >= 1,
    );
    expect(provider.received.find((r) => r.endToEndId === e2e)!.signed).toBe(true);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        notifyPayouts(i % 2 === 0 ? a : b, [{ endToEndId: e2e, status: 'COMPLETED' }]),
      ),
    );
    const outcomes = answers.map((r) => r.body.results[0].outcome).sort();
    expect(outcomes).toEqual(['APPLIED', 'DUPLICATE', 'DUPLICATE', 'DUPLICATE', 'DUPLICATE']);
    expect((await production(a).get(`/transactions/${created.body.id}`)).body.status).toBe('SUCCESS');
    const journals = await db.query(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE kind = 'PAYOUT_SENT' AND reference = $1`,
      [e2e],
    );
    expect(journals.rows[0].n).toBe(1);
    expect(micro(await usdc(production(a), customerId))).toBe(before - 50_000_000n);
    // a result for an unknown payout changes nothing
    const unknown = await notifyPayouts(b, [
      { endToEndId: `E12345678202601011200${'0'.repeat(11)}`, status: 'COMPLETED' },
    ]);
    expect(unknown.body.results[0].outcome).toBe('UNKNOWN');
  });

  it('SIGKILL between the reserve and the payout: after restart the payout is sent again with the same end-to-end id and paid once', async () => {
    const { customerId, accountId } = await fundedProductionCustomer();
    const before = micro(await usdc(production(a), customerId));
    provider.setMode('hang');
    const seen = provider.received.length;
    const created = await production(a).post('/transactions/off-ramp', {
      customerId,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '40',
      purpose: 'PERSONAL_ACCOUNT',
    });
    expect(created.status).toBe(201);
    // the reserve is committed and the payout is on its way to the provider, which holds the request
    await provider.requests(seen + 1);
    const e2e = provider.received[seen]!.endToEndId;
    a.child.kill('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');
    provider.setMode('accept');
    const restarted = await spawnPonte(env);
    extra.push(restarted);
    // after the claim's lease, a process sends it again: the same end-to-end id, so the provider pays once
    const resent = await poll(
      async () => provider.received.slice(seen).filter((r) => r.endToEndId === e2e).length,
      (n) => n >= 2,
      30_000,
    );
    expect(resent).toBeGreaterThanOrEqual(2);
    expect(new Set(provider.received.slice(seen).map((r) => r.endToEndId))).toEqual(new Set([e2e]));
    const waiting = await production(restarted).get(`/transactions/${created.body.id}`);
    expect(waiting.body.status).toBe('TRANSFERRING_FIAT');
    expect(waiting.body.payout.endToEndId).toBe(e2e);
    const result = await notifyPayouts(restarted, [{ endToEndId: e2e, status: 'COMPLETED' }]);
    expect(result.body.results[0].outcome).toBe('APPLIED');
    expect((await production(b).get(`/transactions/${created.body.id}`)).body.status).toBe('SUCCESS');
    expect(micro(await usdc(production(b), customerId))).toBe(before - 40_000_000n);
    const journals = await db.query(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE kind = 'PAYOUT_SENT' AND transaction_id = $1`,
      [created.body.id],
    );
    expect(journals.rows[0].n).toBe(1);
  });

  it('a payout the provider refuses after a restart FAILS with the reserve released', async () => {
    const api = production(b);
    const { customerId, accountId } = await fundedProductionCustomer();
    const before = micro(await usdc(api, customerId));
    provider.setMode('reject');
    const created = await api.post('/transactions/off-ramp', {
      customerId,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '25',
      purpose: 'PERSONAL_ACCOUNT',
    });
    const done = await poll(
      () => api.get(`/transactions/${created.body.id}`),
      (t) => t.body.status === 'FAILED',
    );
    expect(done.body.failureReason).toMatch(/refused it \(HTTP 422\)/);
    expect(micro(await usdc(api, customerId))).toBe(before);
    const unbalanced = await db.query(
      'SELECT journal_id FROM ledger_entries GROUP BY journal_id, currency HAVING sum(amount) <> 0',
    );
    expect(unbalanced.rows).toEqual([]);
    provider.setMode('accept');
  });
});
