/**
 * A money movement's creation costs round trips to the database, and the write path's throughput
 * follows them: after the customer's row lock, one statement reads everything the creation decides on
 * and one statement writes everything it writes (transaction, limit usage, reserve journal, event).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Transaction, TxOptions } from '../../src/db/types.ts';
import { type Client, client } from '../helpers/server.ts';
import { customerWithAccount, fund, offRamp } from '../off-ramp/support.ts';
import { approvedIndividual, createOnRamp, type IsolatedServer, startIsolatedServer } from './support.ts';

let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startIsolatedServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

/** Runs `request`, recording the statements of every database transaction begun meanwhile. */
async function statementsOf(request: () => Promise<unknown>): Promise<string[][]> {
  const db = server.ctx.db;
  const original = db.transaction;
  const transactions: string[][] = [];
  db.transaction = <T>(work: (tx: Transaction) => Promise<T>, options?: TxOptions) =>
    original.call<Database, [(tx: Transaction) => Promise<T>, TxOptions | undefined], Promise<T>>(
      db,
      (tx) => {
        const statements: string[] = [];
        transactions.push(statements);
        const counted: Transaction = {
          ...tx,
          query: (text, params) => {
            statements.push(text);
            return tx.query(text, params);
          },
        };
        return work(counted);
      },
      options,
    );
  try {
    await request();
  } finally {
    db.transaction = original;
  }
  return transactions;
}

/** The statements of the transaction that inserted the new movement. */
const creation = (transactions: string[][]) =>
  transactions.filter((statements) => statements.some((text) => /INSERT INTO transactions/.test(text)));

describe('round trips of a creation', () => {
  it('creates an on-ramp in four statements: the customer lock, the compliance holds, one read, one write', async () => {
    const customer = await approvedIndividual(sandbox);
    const [statements, ...others] = creation(
      await statementsOf(() => createOnRamp(sandbox, customer.id, '100.00')),
    );
    expect(others).toEqual([]);
    expect(statements).toHaveLength(4);
    expect(statements![0]).toMatch(/FOR NO KEY UPDATE/);
    expect(statements![1]).toMatch(/screening_cases/);
    expect(statements![2]).toMatch(/limit_requests[\s\S]*limit_usage[\s\S]*partner_fees/);
    expect(statements![3]).toMatch(
      /INSERT INTO transactions[\s\S]*INSERT INTO limit_usage[\s\S]*INSERT INTO events/,
    );
  });

  it('creates an off-ramp in four statements: the customer lock, the compliance holds, one read, one write with its reserve', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '1000.00');
    const [statements, ...others] = creation(
      await statementsOf(async () => {
        const response = await offRamp(sandbox, {
          customerId: customer.id,
          bankAccountId: accountId,
          sourceCurrency: 'USDC',
          sourceAmount: '10',
        });
        expect(response.statusCode).toBe(201);
      }),
    );
    expect(others).toEqual([]);
    expect(statements).toHaveLength(4);
    expect(statements![0]).toMatch(/FOR NO KEY UPDATE/);
    expect(statements![1]).toMatch(/screening_cases/);
    expect(statements![2]).toMatch(
      /bank_accounts[\s\S]*conversion_rates[\s\S]*partner_fees[\s\S]*limit_requests[\s\S]*limit_usage[\s\S]*ledger_entries/,
    );
    expect(statements![3]).toMatch(
      /INSERT INTO transactions[\s\S]*INSERT INTO limit_usage[\s\S]*INSERT INTO ledger_journals[\s\S]*INSERT INTO ledger_entries[\s\S]*INSERT INTO events/,
    );
  });
});
