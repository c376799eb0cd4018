/**
 * Test databases. On PostgreSQL, a run migrates one template database; every database a test needs is
 * a copy of it (`CREATE DATABASE … TEMPLATE …`), so nothing is migrated twice. On PGlite, the run dumps
 * one migrated data directory to a file; the test files a worker process runs, one after another, share
 * one in-memory copy of it (as every file shares one database on PostgreSQL), and a file that needs a
 * database of its own opens another copy.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { connectPglite } from '../../src/db/pglite.ts';
import type { Database } from '../../src/db/types.ts';

/**
 * Connections each test server and each spawned process opens for requests and workers: test files run
 * three at once, some with two processes besides their server, and all of them fit the test server's
 * default `max_connections` of 100.
 */
export const TEST_POOL_SIZE = '8';

export type TestDatabase = { url: string; name: string; drop(): Promise<void> };

async function onServer(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A new database on the server of `adminUrl`, empty or copied from `template`. */
export async function createDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await onServer(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => onServer(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * On PostgreSQL, a migrated database of the test file's own, which no other file writes to; on PGlite,
 * null (`pgliteCopy` opens one there).
 */
export async function ownDatabase(prefix = 'ponte_own'): Promise<TestDatabase | null> {
  const template = inject('testTemplateDatabase');
  const shared = inject('testDatabaseUrl');
  if (!template || !shared) return null;
  return createDatabase(shared, prefix, template);
}

/**
 * On PGlite, a fresh copy of the run's migrated database: in memory, or written to `dataDir` as an
 * existing installation's data directory; on PostgreSQL, undefined.
 */
export async function pgliteCopy(dataDir = 'memory://'): Promise<Database | undefined> {
  const snapshot = inject('testPgliteSnapshot');
  if (!snapshot) return undefined;
  return connectPglite(dataDir, new Blob([await readFile(snapshot)]));
}

const SHARED = Symbol.for('ponte.test.sharedPglite');
type WithShared = typeof globalThis & { [SHARED]?: Promise<Database | undefined> };

/**
 * On PGlite, the copy of the run's migrated database that this worker process's test files share, one
 * after another (opening a copy costs about half a second of CPU); closing it leaves it open for the next
 * file. On PostgreSQL, undefined.
 */
export function sharedPglite(): Promise<Database | undefined> {
  const worker = globalThis as WithShared;
  worker[SHARED] ??= pgliteCopy().then((db) => db && { ...db, close: async () => {} });
  return worker[SHARED];
}
