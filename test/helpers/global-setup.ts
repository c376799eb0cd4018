/**
 * Prepares the run's databases once. With DATABASE_URL set, the suite runs on that PostgreSQL server: a
 * template database is created and migrated, and a copy of it is shared by every test file (each file
 * works in its own projects); files that need a database of their own copy the template too. Without
 * it, a migrated PGlite data directory is dumped to a file, and each test file opens its own copy.
 * Everything is dropped at the end.
 */
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.ts';
import { snapshotPglite } from '../../src/db/pglite.ts';
import { connectPostgres } from '../../src/db/postgres.ts';
import { createDatabase } from './database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL database shared by test files; null on PGlite. */
    testDatabaseUrl: string | null;
    /** The migrated PostgreSQL database to copy (never connected to by tests); null on PGlite. */
    testTemplateDatabase: string | null;
    /** The file holding the migrated PGlite data directory; null on PostgreSQL. */
    testPgliteSnapshot: string | null;
  }
}

export default async function setup(project: TestProject) {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const snapshot = await snapshotPglite(migrate);
    const file = join(tmpdir(), `ponte-test-${process.pid}-${Date.now()}.tar`);
    await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
    project.provide('testDatabaseUrl', null);
    project.provide('testTemplateDatabase', null);
    project.provide('testPgliteSnapshot', file);
    return () => rm(file, { force: true });
  }

  const template = await createDatabase(adminUrl, 'ponte_template');
  const db = connectPostgres(template.url, { max: 2 });
  await migrate(db);
  await db.close();
  const shared = await createDatabase(adminUrl, 'ponte_test', template.name);
  project.provide('testDatabaseUrl', shared.url);
  project.provide('testTemplateDatabase', template.name);
  project.provide('testPgliteSnapshot', null);

  return async () => {
    await shared.drop();
    await template.drop();
  };
}
