/**
 * The sandbox worker locks a customer's verifications in the order every review does: the customer's row,
 * then the customer's own verification, then the verification it decides. It used to claim the due
 * verification first and wait for the customer's afterwards, so a review holding the customer and waiting
 * for the party's verification closed a cycle with it (a deadlock, one of the two transactions lost).
 * On PostgreSQL the two run at once, on two sessions; on both databases the order itself is checked.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable, Transaction } from '../../src/db/types.ts';
import { lockCustomerVerification } from '../../src/modules/verifications/kyb.ts';
import { lockVerification } from '../../src/modules/verifications/repo.ts';
import { applyDueSandboxOutcomes } from '../../src/modules/verifications/sandbox.ts';
import { businessBody, createCustomer, validCnpj, validCpf } from '../helpers/factories.ts';
import { type Client, eventually, startTestApi, type TestServer, usingPostgres } from '../helpers/server.ts';
import { addParty, representative } from './support.ts';

let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  // the worker runs when the test says so, on a database of its own (it takes every due verification)
  ({ server, sandbox } = await startTestApi({ workers: false, ownDatabase: true }));
});
afterAll(() => server.close());

const partyStatus = async (customerId: string, partyId: string) =>
  (await sandbox.get(`/customers/${customerId}/associated-parties/${partyId}`)).json().verification.status;

/** A company (its own outcome left alone: taxId ending in 1) with a representative the sandbox approves. */
async function companyWithParty() {
  const company = await createCustomer(sandbox, businessBody({ taxId: validCnpj('1') }));
  const party = await addParty(sandbox, company.id, representative({ taxId: validCpf('5') }));
  return { company, party, partyVerificationId: party.verification!.id };
}

/** The ids each locking statement answered (the rows it locked), per transaction, in order. */
function recordingLocks(db: Database) {
  const transactions: string[][][] = [];
  const LOCKING = /\bFOR (NO KEY )?UPDATE\b/;
  const recorded = (inner: Queryable, log: string[][]): Queryable => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      const rows = await inner.query<Row>(text, params);
      if (LOCKING.test(text)) log.push(rows.map((row) => String((row as { id?: unknown }).id)));
      return rows;
    },
  });
  const wrapped: Database = {
    ...db,
    query: (text, params) => db.query(text, params),
    transaction: (work, options) =>
      db.transaction((tx) => {
        const log: string[][] = [];
        transactions.push(log);
        return work({ ...recorded(tx, log), exec: (script) => tx.exec(script) } as Transaction);
      }, options),
  };
  return { db: wrapped, transactions };
}

describe('sandbox verification worker lock order', () => {
  it("locks the customer's row and verification before the party's verification it decides", async () => {
    const { company, party, partyVerificationId } = await companyWithParty();
    const { db, transactions } = recordingLocks(server.ctx.db);
    await applyDueSandboxOutcomes(db, server.ctx.clock);
    expect(await partyStatus(company.id, party.id)).toBe('APPROVED');

    const deciding = transactions.find((locks) => locks.some((ids) => ids.includes(partyVerificationId)));
    expect(deciding).toBeDefined();
    const first = (id: string) => deciding!.findIndex((ids) => ids.includes(id));
    const customerRow = first(company.id);
    const customerVerification = first(company.verification.id);
    const partyVerification = first(partyVerificationId);
    expect(customerRow).toBeGreaterThanOrEqual(0);
    expect(customerRow).toBeLessThan(customerVerification);
    expect(customerVerification).toBeLessThan(partyVerification);
  });

  it.runIf(usingPostgres())(
    "a review holding the customer while the worker decides its party's verification closes no cycle",
    async () => {
      const { company, party, partyVerificationId } = await companyWithParty();
      const session = new pg.Client({ connectionString: server.databaseUrl! });
      await session.connect();
      const review: Queryable = {
        query: async <Row>(text: string, params?: readonly unknown[]) =>
          (await session.query(text, params as unknown[])).rows as Row[],
      };
      try {
        const pid = (await review.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid;
        await review.query('BEGIN');
        // this session looks for a cycle after 10 ms, long before the worker's (1 s): a cycle fails here
        await review.query("SET LOCAL deadlock_timeout = '10ms'");
        // a review's first lock: the customer's own verification (decideVerification)
        await lockCustomerVerification(review, company.id);
        const worker = applyDueSandboxOutcomes(server.ctx.db, server.ctx.clock).then(
          () => 'done',
          (error: { code?: string }) => error.code ?? String(error),
        );
        // the worker now waits for the customer's verification the review holds
        await eventually(
          () =>
            server.ctx.db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`,
              [pid],
            ),
          (rows) => rows[0]!.n > 0,
        );
        // a review's second lock: the party's verification, which the worker must not be holding
        const second = await lockVerification(review, partyVerificationId).then(
          () => 'locked',
          (error: { code?: string }) => error.code ?? String(error),
        );
        await review.query('COMMIT');
        expect(second).toBe('locked');
        expect(await worker).toBe('done');
      } finally {
        await session.end();
      }
      expect(await partyStatus(company.id, party.id)).toBe('APPROVED');
    },
  );
});
