/**
 * With DATABASE_URL set, the suite runs on that PostgreSQL server: a fresh database is created and
 * migrated once for this run, shared by every test file (each file works in its own projects), and
 * dropped at the end. Without it, each test file opens its own in-memory PGlite.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.ts';
import { connectPostgres } from '../../src/db/postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    project.provide('testDatabaseUrl', null);
    return;
  }
  const name = `ponte_test_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = connectPostgres(url.toString(), { max: 2 });
  await migrate(db);
  await db.close();
  project.provide('testDatabaseUrl', url.toString());

  return async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  };
}
