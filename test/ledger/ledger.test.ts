import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { unbalancedJournals } from '../../src/modules/ledger/repo.ts';
import { type Client, client } from '../helpers/server.ts';
import {
  approvedIndividual,
  createOnRamp,
  type IsolatedServer,
  setRate,
  startIsolatedServer,
} from '../transactions/support.ts';

let server: IsolatedServer;
let sandbox: Client;
let stranger: Client;
let projectId: string;

beforeAll(async () => {
  server = await startIsolatedServer({ env: { PONTE_ONRAMP_FEE_BPS: '100', PONTE_ONRAMP_FEE_FLAT: '0.50' } });
  const tenant = await server.newTenant();
  projectId = tenant.projectId;
  sandbox = client(server.sandbox, tenant.sandboxKey);
  stranger = client(server.sandbox, (await server.newTenant('Stranger')).sandboxKey);
  await setRate(server, 'BRL/USDC', '0.18');
  await setRate(server, 'BRL/USDT', '0.1799');
});
afterAll(async () => {
  await server.close();
});

/** A journal of `kind` and its entries (rows of `$1` (the journal), account, currency, amount), in one transaction. */
const writeJournal = (journalId: string, kind: string, entries: string) =>
  server.ctx.db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO ledger_journals (id, project_id, environment, kind, reference, created_at)
       VALUES ($1::uuid, $2, 'sandbox', $3, $1::text, now())`,
      [journalId, projectId, kind],
    );
    await tx.query(`INSERT INTO ledger_entries (journal_id, account, currency, amount) VALUES ${entries}`, [
      journalId,
    ]);
  });

const deposit = (id: string, body: Record<string, unknown> = {}) =>
  sandbox.post(`/sandbox/transactions/${id}/deposit`, body).then((r) => r.json());

type EntryRow = {
  kind: string;
  account: string;
  currency: string;
  amount: bigint;
  customer_id: string | null;
};
const entriesOf = (transactionId: string) =>
  server.ctx.db.query<EntryRow>(
    `SELECT j.kind, e.account, e.currency, e.amount, e.customer_id
       FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id
      WHERE j.transaction_id = $1 ORDER BY j.created_at, e.id`,
    [transactionId],
  );

describe('the ledger', () => {
  it('posts balanced entries for the deposit, the fee, the conversion and the credit', async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '1000.00');
    const done = await deposit(created.id);
    // fee = 10.00 + 0.50; net = 989.50; 989.50 × 0.18 = 178.11
    expect(done.receipt).toMatchObject({ fee: '10.50', netAmount: '989.50', targetAmount: '178.110000' });
    const entries = (await entriesOf(created.id)).map((e) => [e.kind, e.account, e.currency, e.amount]);
    expect(entries).toEqual([
      ['DEPOSIT_RECEIVED', 'PIX_SETTLEMENT', 'BRL', 100_000n],
      ['DEPOSIT_RECEIVED', 'CUSTOMER_FIAT', 'BRL', -100_000n],
      ['FEE', 'CUSTOMER_FIAT', 'BRL', 1_050n],
      ['FEE', 'FEE_REVENUE', 'BRL', -1_050n],
      ['CONVERSION', 'CUSTOMER_FIAT', 'BRL', 98_950n],
      ['CONVERSION', 'CONVERSION_DESK', 'BRL', -98_950n],
      ['CONVERSION', 'CONVERSION_DESK', 'USDC', 178_110_000n],
      ['CONVERSION', 'STABLECOIN_IN_TRANSIT', 'USDC', -178_110_000n],
      ['STABLECOIN_CREDITED', 'STABLECOIN_IN_TRANSIT', 'USDC', 178_110_000n],
      ['STABLECOIN_CREDITED', 'CUSTOMER_WALLET', 'USDC', -178_110_000n],
    ]);
  });

  it("derives the customer's balances from it", async () => {
    const customer = await approvedIndividual(sandbox);
    const empty = await sandbox.get(`/customers/${customer.id}/balances`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      customerId: customer.id,
      balances: [
        { currency: 'USDC', amount: '0.000000' },
        { currency: 'USDT', amount: '0.000000' },
        { currency: 'BRL', amount: '0.00' },
        { currency: 'USD', amount: '0.00' },
      ],
    });
    await deposit((await createOnRamp(sandbox, customer.id, '1000.00')).id); // 178.110000 USDC
    await deposit((await createOnRamp(sandbox, customer.id, '100.00')).id); // 98.50 × 0.18 = 17.73
    await deposit((await createOnRamp(sandbox, customer.id, '100.00', { targetCurrency: 'USDT' })).id); // 17.72015
    await deposit((await createOnRamp(sandbox, customer.id, '300.00')).id, { amount: '299.00' }); // held
    const balances = (await sandbox.get(`/customers/${customer.id}/balances`)).json();
    expect(balances.balances).toEqual([
      { currency: 'USDC', amount: '195.840000' },
      { currency: 'USDT', amount: '17.720150' },
      { currency: 'BRL', amount: '299.00' },
      { currency: 'USD', amount: '0.00' },
    ]);
  });

  it("answers 404 for another project's customer", async () => {
    const customer = await approvedIndividual(sandbox);
    expect((await stranger.get(`/customers/${customer.id}/balances`)).statusCode).toBe(404);
    expect((await sandbox.get('/customers/00000000-0000-4000-8000-000000000000/balances')).statusCode).toBe(
      404,
    );
  });

  it('credits exactly the receipts, for any amounts, and every journal sums to zero per currency', async () => {
    const customer = await approvedIndividual(sandbox);
    let credited = 0n;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 200, max: 99_999 }), async (cents) => {
        const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        const done = await deposit((await createOnRamp(sandbox, customer.id, amount)).id);
        expect(done.status).toBe('SUCCESS');
        const r = done.receipt;
        expect(BigInt(r.fee.replace('.', '')) + BigInt(r.netAmount.replace('.', ''))).toBe(BigInt(cents));
        credited += BigInt(r.targetAmount.replace('.', ''));
      }),
      { numRuns: 12 },
    );
    const balances = (await sandbox.get(`/customers/${customer.id}/balances`)).json();
    expect(BigInt(balances.balances[0].amount.replace('.', ''))).toBe(credited);
    expect(await unbalancedJournals(server.ctx.db)).toEqual([]);
  });

  it('the database refuses a journal that does not balance, at commit', async () => {
    const journalId = newId();
    const attempt = writeJournal(
      journalId,
      'FEE',
      `($1, 'PIX_SETTLEMENT', 'BRL', 100), ($1, 'FEE_REVENUE', 'BRL', -99)`,
    );
    await expect(attempt).rejects.toThrow(/does not balance/);
    expect(await server.ctx.db.query('SELECT 1 FROM ledger_journals WHERE id = $1', [journalId])).toEqual([]);
  });

  it('the database checks each currency on its own', async () => {
    const journalId = newId();
    // sums to zero overall, but not in BRL nor in USDC
    const attempt = writeJournal(
      journalId,
      'CONVERSION',
      `($1, 'CONVERSION_DESK', 'BRL', 100), ($1, 'STABLECOIN_IN_TRANSIT', 'USDC', -100)`,
    );
    await expect(attempt).rejects.toThrow(/does not balance/);
  });

  it('the database refuses entries added to a committed journal that unbalance it', async () => {
    const journalId = newId();
    await writeJournal(
      journalId,
      'FEE',
      `($1, 'PIX_SETTLEMENT', 'BRL', 100), ($1, 'FEE_REVENUE', 'BRL', -100)`,
    );
    const append = server.ctx.db.transaction((tx) =>
      tx.query(
        `INSERT INTO ledger_entries (journal_id, account, currency, amount) VALUES ($1, 'FEE_REVENUE', 'BRL', -1)`,
        [journalId],
      ),
    );
    await expect(append).rejects.toThrow(/does not balance/);
    const sums = await server.ctx.db.query<{ n: bigint; total: string }>(
      'SELECT count(*) AS n, sum(amount)::text AS total FROM ledger_entries WHERE journal_id = $1',
      [journalId],
    );
    expect(sums[0]).toMatchObject({ total: '0' });
    expect(Number(sums[0]!.n)).toBe(2);
  });

  it('the database checks every journal a statement writes, each on its own', async () => {
    const [balanced, unbalanced] = [newId(), newId()];
    const attempt = server.ctx.db.transaction(async (tx) => {
      for (const id of [balanced, unbalanced]) {
        await tx.query(
          `INSERT INTO ledger_journals (id, project_id, environment, kind, reference, created_at)
           VALUES ($1::uuid, $2, 'sandbox', 'FEE', $1::text, now())`,
          [id, projectId],
        );
      }
      // sums to zero over both journals, but not in the second one
      await tx.query(
        `INSERT INTO ledger_entries (journal_id, account, currency, amount) VALUES
           ($1, 'PIX_SETTLEMENT', 'BRL', 100), ($1, 'FEE_REVENUE', 'BRL', -100),
           ($2, 'PIX_SETTLEMENT', 'BRL', 5), ($1, 'FEE_REVENUE', 'BRL', -5)`,
        [balanced, unbalanced],
      );
    });
    await expect(attempt).rejects.toThrow(/does not balance/);
  });

  it('the ledger is append-only', async () => {
    await expect(server.ctx.db.query('UPDATE ledger_entries SET amount = amount * 2')).rejects.toThrow(
      /append-only/,
    );
    await expect(server.ctx.db.query('DELETE FROM ledger_journals')).rejects.toThrow(/append-only/);
  });
});
