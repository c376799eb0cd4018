import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../src/db/postgres.ts';
import { batchedReads } from '../../src/db/read-batches.ts';
import type { Executor } from '../../src/db/types.ts';
import { startTestServer, type TestServer, testConfig } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(() => server.close());

/** The test database, counting the statements run on it. */
function counted(): Executor & { statements: number } {
  const db = {
    statements: 0,
    query<Row>(text: string, params?: readonly unknown[]) {
      db.statements++;
      return server.ctx.db.query<Row>(text, params);
    },
  };
  return db;
}

/** Reads each key's square; a negative key has no row, and the key 0 fails its statement. */
const squares = (db: Executor) =>
  batchedReads<number, { read_index: number; square: number }>(db, {
    // 0 / k: division by zero for the key 0
    sql: `SELECT r.i::int AS read_index, r.k * r.k + 0 / r.k AS square
            FROM unnest($1::int[]) WITH ORDINALITY AS r (k, i) WHERE r.k >= 0`,
    params: (keys) => [keys],
  });

describe('reads coalesced', () => {
  it('answer each read its own row, in fewer statements than reads when they arrive together', async () => {
    const db = counted();
    const read = squares(db);
    const keys = Array.from({ length: 40 }, (_, i) => i + 1);
    const rows = await Promise.all(keys.map((key) => read(key)));
    expect(rows.map((row) => row?.square)).toEqual(keys.map((key) => key * key));
    // four alone at once, the other thirty-six in at most four more statements as those end
    expect(db.statements).toBeLessThanOrEqual(8);
  });

  it('run a read alone at once, in a statement of its own', async () => {
    const db = counted();
    const read = squares(db);
    expect((await read(3))?.square).toBe(9);
    expect((await read(4))?.square).toBe(16);
    expect(db.statements).toBe(2);
  });

  it('answer undefined for a read without a row, the others of its statement unaffected', async () => {
    const read = squares(counted());
    const rows = await Promise.all([1, 2, 3, 4, 5, -6, 7, 8].map((key) => read(key)));
    expect(rows.map((row) => row?.square)).toEqual([1, 4, 9, 16, 25, undefined, 49, 64]);
  });

  it('fail only the read whose key fails its statement', async () => {
    const read = squares(counted());
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 0, 7, 8].map((key) => read(key)));
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value?.square : null))).toEqual([
      1,
      4,
      9,
      16,
      25,
      null,
      49,
      64,
    ]);
  });
});

describe('reads coalesced on PostgreSQL', () => {
  it('are planned once per session, from their first run on: no run plans them again', async () => {
    const url = testConfig().config.databaseUrl;
    if (!url) return; // the embedded database keeps no plan across statements
    const db = connectPostgres(url, { max: 1 });
    try {
      const read = squares(db);
      for (let key = 1; key <= 8; key++) expect((await read(key))?.square).toBe(key * key);
      // one session in each pool (max 1), so the statement's counters are the ones of that session
      const plans = (on: Executor) =>
        on.query<{ generic_plans: number; custom_plans: number }>(
          `SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement LIKE '%r.k * r.k%'`,
        );
      expect(db.planOnce).toBeDefined();
      expect(await plans(db.planOnce!)).toEqual([{ generic_plans: 8, custom_plans: 0 }]);
    } finally {
      await db.close();
    }
  });

  it('run on the main pool, never failing, where the server refuses the settings of the plan-once sessions', async () => {
    const url = testConfig().config.databaseUrl;
    if (!url) return;
    // what PgBouncer answers when `options` carries a parameter it does not track, here from PostgreSQL
    const db = connectPostgres(url, { max: 1, planOnceSettings: '-c plan_cache_mode=no_such_mode' });
    try {
      const read = squares(db);
      for (let key = 1; key <= 3; key++) expect((await read(key))?.square).toBe(key * key);
    } finally {
      await db.close();
    }
  });
});
