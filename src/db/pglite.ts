import { mkdirSync } from 'node:fs';
import v8 from 'node:v8';
import { PGlite, types } from '@electric-sql/pglite';
import { runBeforeCommit } from './commit-hooks.ts';
import type { Database, Queryable, Transaction, TxOptions } from './types.ts';

const parsers = {
  [types.INT8]: (value: string) => BigInt(value),
  [types.DATE]: (value: string) => value,
};

/**
 * Embedded PostgreSQL (PGlite): one connection in this process, so statements and transactions are
 * serialised by PGlite itself. `memory://` keeps nothing; any other value is a directory. `from` starts
 * the database from a data directory dumped by `snapshotPglite` instead of an empty one. `database` names
 * another database of the data directory than the default `postgres` (one made by `CREATE DATABASE`).
 */
export async function connectPglite(
  dataDir: string,
  from?: Blob,
  options: { database?: string } = {},
): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  baselineWasmOnly();
  // PostgreSQL's default 128 MB of shared buffers would be most of the process's memory; an embedded
  // database for one process reads its files through the operating system's cache anyway.
  return asDatabase(
    await PGlite.create(dataDir, {
      parsers,
      postgresqlconf: ['shared_buffers = 16MB'],
      ...(from ? { loadDataDir: from } : {}),
      ...(options.database ? { database: options.database } : {}),
    }),
  );
}

/**
 * PGlite is PostgreSQL compiled to WebAssembly. V8 compiles it with its baseline compiler (Liftoff), then
 * recompiles the hot functions with its optimising one in the background. Measured on the embedded
 * default (bench/README.md, "The embedded default"): the optimised copies cost about 45 MB of resident
 * memory and most of a core for the first seconds after start, and made primary-key reads no faster (a
 * query's time goes to the JavaScript around the module and to copying, not to the compiled code). So
 * the module stays on baseline code. The flag is read when a module is compiled, and PGlite is the only
 * WebAssembly this service loads.
 */
function baselineWasmOnly() {
  v8.setFlagsFromString('--liftoff-only');
}

/**
 * An in-memory database prepared by `prepare` (migrations, say), dumped as a data directory: opening a
 * copy of it with `connectPglite(dir, snapshot)` skips creating and preparing the database again.
 */
export async function snapshotPglite(prepare: (db: Database) => Promise<unknown>): Promise<Blob> {
  baselineWasmOnly();
  const pglite = await PGlite.create('memory://', { parsers });
  try {
    await prepare(asDatabase(pglite));
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
}

function asDatabase(db: PGlite): Database {
  const queryable = (client: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      const result = await client.query<Row>(text, params as unknown[] | undefined);
      return result.rows;
    },
  });

  // transactions open or waiting for the one session
  let transactions = 0;
  return {
    kind: 'pglite',
    ...queryable(db),
    async transaction<T>(work: (tx: Transaction) => Promise<T>, options: TxOptions = {}) {
      transactions += 1;
      try {
        return await inTransaction(work, options);
      } finally {
        transactions -= 1;
      }
    },
    poolUsage: () => ({
      inUse: Math.min(transactions, 1),
      waiting: Math.max(transactions - 1, 0),
      max: 1,
    }),
    async exec(script) {
      await db.exec(script);
    },
    async listen(channel, onNotify) {
      // the one session is this process's: a notification committed here is delivered here too
      const stop = await db.listen(channel, () => onNotify());
      return async () => {
        if (!db.closed) await stop();
      };
    },
    async ping() {
      await db.query('SELECT 1');
    },
    async close() {
      await db.close();
    },
  };

  function inTransaction<T>(work: (tx: Transaction) => Promise<T>, options: TxOptions): Promise<T> {
    return db.transaction(async (tx) => {
      if (options.isolation) await tx.query(`SET TRANSACTION ISOLATION LEVEL ${options.isolation}`);
      const open: Transaction = {
        ...queryable(tx),
        exec: async (script) => {
          await tx.exec(script);
        },
      };
      const result = await work(open);
      await runBeforeCommit(open, result);
      return result;
    });
  }
}
