/** What `ponte_db_pool_connections` reads: connections held by transactions, and those waiting for one. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(() => server.close());

describe('the pool usage of the database', () => {
  it('counts a connection in use while a transaction holds it, and gives it back when it ends', async () => {
    const db = server.ctx.db;
    const before = db.poolUsage!();
    expect(before.max).toBe(usingPostgres() ? server.config.databasePoolSize : 1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const inside = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      started();
      await held;
    });
    await inside;
    const during = db.poolUsage!();
    expect(during.inUse).toBeGreaterThanOrEqual(1);
    // embedded, a second transaction waits for the one session
    const second = db.transaction(async (tx) => tx.query('SELECT 1'));
    if (!usingPostgres()) expect(db.poolUsage!()).toEqual({ inUse: 1, waiting: 1, max: 1 });
    release();
    await Promise.all([first, second]);
    expect(db.poolUsage!().waiting).toBe(0);
    if (!usingPostgres()) expect(db.poolUsage!().inUse).toBe(0);
  });
});
