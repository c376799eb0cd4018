/**
 * A server out of connections (its `max_connections`, a role's or a database's limit) refuses a new one
 * with `too_many_connections` before any statement runs. Reads and transactions try again after the
 * pauses of a collided transaction, and only a refusal that outlasts every try stands (answered 503).
 * Here a role limited to one connection, one held by the test, stands for a full server.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { connectPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { randomBase62 } from '../../src/lib/secrets.ts';
import { testConfig } from '../helpers/server.ts';

const url = testConfig().config.databaseUrl;
const role = `ponte_limited_${randomBase62(8).toLowerCase()}`;
let admin: pg.Client;
let limitedUrl: string;

beforeAll(async () => {
  if (!url) return;
  admin = new pg.Client(url);
  await admin.connect();
  await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 1`);
  const limited = new URL(url);
  limited.username = role;
  limitedUrl = limited.toString();
});
afterAll(async () => {
  if (!url) return;
  await admin.query(`DROP ROLE IF EXISTS ${role}`);
  await admin.end();
});

/** The role's one connection, held until `end`. */
async function holdTheOnlyConnection(): Promise<pg.Client> {
  const held = new pg.Client(limitedUrl);
  await held.connect();
  return held;
}

/**
 * Closes the role's held connection and waits until the server has counted it out: a client's `end`
 * resolves when its socket closes, a moment before the server's backend exits and frees the slot.
 */
async function release(held: pg.Client): Promise<void> {
  await held.end();
  for (;;) {
    const { rows } = await admin.query<{ open: number }>(
      'SELECT count(*)::int AS open FROM pg_stat_activity WHERE usename = $1',
      [role],
    );
    if (rows[0]!.open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Pauses recorded by attempt; the first frees the held connection when `held` is given. */
function pauses(held?: pg.Client) {
  const seen: number[] = [];
  return {
    seen,
    pause: async (attempt: number) => {
      seen.push(attempt);
      if (held && attempt === 1) await release(held);
    },
  };
}

describe.runIf(url)('a database out of connections', () => {
  it('refuses a connection with too_many_connections while the role holds its limit', async () => {
    const held = await holdTheOnlyConnection();
    try {
      const refused = new pg.Client(limitedUrl);
      await expect(refused.connect()).rejects.toMatchObject({ code: '53300' });
    } finally {
      await release(held);
    }
  });

  const ONE = [{ one: 1 }];
  it.each([
    {
      what: 'a transaction',
      options: {},
      run: (db: Database) => db.transaction((tx) => tx.query('SELECT 1 AS one')),
    },
    {
      what: 'a read',
      options: { preparedStatements: false },
      run: (db: Database) => db.query('SELECT $1::int AS one', [1]),
    },
    {
      what: 'a read planned once, on the main pool',
      options: {},
      run: (db: Database) => db.planOnce!.query('SELECT $1::int AS one', [1]),
    },
  ])('runs $what once a connection is free again, after one pause', async ({ options, run }) => {
    const held = await holdTheOnlyConnection();
    const { seen, pause } = pauses(held);
    const db = connectPostgres(limitedUrl, { max: 1, ...options, pause });
    try {
      expect(await run(db)).toEqual(ONE);
      expect(seen).toEqual([1]);
    } finally {
      await db.close();
    }
  });

  it('gives up with too_many_connections after every try, having applied nothing', async () => {
    const held = await holdTheOnlyConnection();
    const { seen, pause } = pauses();
    const db = connectPostgres(limitedUrl, { max: 1, pause });
    try {
      await expect(db.transaction((tx) => tx.query('SELECT 1'))).rejects.toMatchObject({ code: '53300' });
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await db.close();
      await release(held);
    }
  });

  it('opens at most PONTE_DATABASE_POOL_SIZE connections for requests and workers', async () => {
    const { config } = testConfig({ PONTE_DATABASE_POOL_SIZE: '2' });
    expect(config.databasePoolSize).toBe(2);
    const db = await connectDatabase({
      databaseUrl: url,
      dataDir: 'memory://',
      poolSize: config.databasePoolSize,
    });
    try {
      const sessions = await Promise.all(
        Array.from({ length: 6 }, () =>
          db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.02)'),
        ),
      );
      expect(new Set(sessions.map(([row]) => row!.pid)).size).toBeLessThanOrEqual(2);
    } finally {
      await db.close();
    }
  });
});

describe('PONTE_DATABASE_POOL_SIZE', () => {
  it('is 20 unless set, and at least 1', () => {
    expect(loadConfig({}).databasePoolSize).toBe(20);
    expect(loadConfig({ PONTE_DATABASE_POOL_SIZE: '5' }).databasePoolSize).toBe(5);
    expect(() => loadConfig({ PONTE_DATABASE_POOL_SIZE: '0' })).toThrow(/PONTE_DATABASE_POOL_SIZE/);
  });
});
