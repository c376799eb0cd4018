/**
 * The running totals the limit check reads (table `limit_usage`) against a recount of the transactions
 * that count: every movement not FAILED or EXPIRED, by its creation's UTC day and month.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueTransactions } from '../../src/modules/on-ramp/expiry.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import {
  approvedIndividual,
  createOnRamp,
  type IsolatedServer,
  onRamp,
  startIsolatedServer,
} from './support.ts';

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startIsolatedServer({ clock });
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

type Total = { customer_id: string; period: string; period_start: string; amount: string };

const RECOUNT = `
  SELECT customer_id, 'DAY' AS period, (created_at AT TIME ZONE 'UTC')::date AS period_start, sum(amount) AS amount
    FROM transactions WHERE status NOT IN ('FAILED', 'EXPIRED')
   GROUP BY 1, 3
  UNION ALL
  SELECT customer_id, 'MONTH', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, sum(amount)
    FROM transactions WHERE status NOT IN ('FAILED', 'EXPIRED')
   GROUP BY 1, 3`;

async function totals(sql: string): Promise<Total[]> {
  const rows = await server.ctx.db.query<Total>(
    `SELECT customer_id::text, period, period_start::text, amount::text FROM (${sql}) t
      WHERE amount > 0 ORDER BY 1, 2, 3`,
  );
  return rows;
}

const stored = () => totals('SELECT customer_id, period, period_start, amount FROM limit_usage');
const recounted = () => totals(RECOUNT);

describe('running limit totals', () => {
  it('equal a recount of the transactions that count, through creations, refusals, failures and expiries', async () => {
    const customers = await Promise.all([approvedIndividual(sandbox), approvedIndividual(sandbox)]);
    // concurrent creations, some refused by the daily limit of 15000.00
    const answers = await Promise.all(
      customers.flatMap((customer) =>
        Array.from({ length: 12 }, (_, i) => onRamp(sandbox, customer.id, i % 2 ? '1500.00' : '1250.50')),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 422).length).toBeGreaterThan(0);
    expect(answers.every((a) => a.statusCode === 201 || a.statusCode === 422)).toBe(true);
    const created = answers.filter((a) => a.statusCode === 201).map((a) => a.json());
    // a deposit of the wrong amount FAILS its transaction
    const failed = await sandbox.post(`/sandbox/transactions/${created[0].id}/deposit`, { amount: '1.00' });
    expect(failed.json().status).toBe('FAILED');
    expect(await stored()).toEqual(await recounted());

    offsetMs += 31 * 60_000;
    // the background sweeper may hold some of them (SKIP LOCKED) while this call expires the rest
    await eventually(
      async () => {
        await expireDueTransactions(server.ctx.db, clock);
        return server.ctx.db.query("SELECT 1 FROM transactions WHERE status = 'AWAITING_FUNDS'");
      },
      (waiting) => waiting.length === 0,
      20_000,
    );
    expect(await stored()).toEqual(await recounted());
    // everything expired: the full daily limit is free again
    expect((await onRamp(sandbox, customers[1]!.id, '7500.00')).statusCode).toBe(201);
    expect(await stored()).toEqual(await recounted());
  });

  it('are backfilled by their migration from the transactions that existed before them', async () => {
    const customer = await approvedIndividual(sandbox);
    await createOnRamp(sandbox, customer.id, '7500.00');
    await createOnRamp(sandbox, customer.id, '123.45');
    const before = await stored();
    expect(before).toEqual(await recounted());

    const migration = readFileSync(
      new URL('../../src/db/migrations/014_limit_usage.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.slice(migration.indexOf('INSERT INTO limit_usage'));
    await server.ctx.db.transaction(async (tx) => {
      await tx.exec('DELETE FROM limit_usage');
      await tx.exec(backfill);
    });
    expect(await stored()).toEqual(before);
    // and the limit check reads them: 7623.45 of the 15000.00 daily limit is used
    const refused = await onRamp(sandbox, customer.id, '7376.56');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ limit: 'daily', used: '7623.45', remaining: '7376.55' });
  });
});
