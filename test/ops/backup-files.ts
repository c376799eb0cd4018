/**
 * What the backup and restore tests of the scripts share: a folder of their own for copies (removed after the file), the
 * databases they create (dropped after each test), `npm run backup|restore` run as an operator runs it,
 * and the rows a copy must carry.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { loadInstanceKeys } from '../../src/db/instance-secrets.ts';
import { migrate, migrationFiles } from '../../src/db/migrate.ts';
import type { Database } from '../../src/db/types.ts';
import { createDatabase } from '../helpers/database.ts';

export const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const onPostgres = Boolean(process.env.DATABASE_URL);
export const LAST_MIGRATION = migrationFiles().at(-1)!;

/** The file's folder for copies and its databases' clean-ups: call once, at the top of a test file. */
export function backupWorkspace() {
  const cleanups: (() => Promise<void>)[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ponte-backup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  /** A fresh empty database: its environment for the scripts, and a way to open it. */
  async function freshDatabase(name: string): Promise<{ env: NodeJS.ProcessEnv; open(): Promise<Database> }> {
    if (onPostgres) {
      const created = await createDatabase(ADMIN_URL, 'backup_test');
      cleanups.push(created.drop);
      return {
        env: { DATABASE_URL: created.url },
        open: () => connectDatabase({ databaseUrl: created.url, dataDir: '', poolSize: 1 }),
      };
    }
    const dataDir = join(dir, `${name}-${Math.random().toString(36).slice(2)}`);
    return {
      env: { DATABASE_URL: '', PONTE_DATA_DIR: dataDir },
      open: () => connectDatabase({ dataDir, poolSize: 1 }),
    };
  }

  return { dir, cleanups, freshDatabase };
}

/** `npm run backup|restore -- ARGS`; a string is the file alone. */
export function run(script: 'backup' | 'restore', args: string | string[], env: NodeJS.ProcessEnv) {
  const base = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete base.DATABASE_URL;
  return spawnSync('npx', ['tsx', `scripts/${script}.ts`, ...[args].flat()], { env: base, encoding: 'utf8' });
}

export async function seed(db: Database, until?: string): Promise<string> {
  await migrate(db, until ? { until } : {});
  const keys = await loadInstanceKeys(db, undefined, new Date());
  await db.query(
    `INSERT INTO projects (id, name, created_at)
     SELECT gen_random_uuid(), 'project ' || n, now() FROM generate_series(1, 300) n`,
  );
  await db.query(
    `INSERT INTO audit_log (id, actor, action, resource_type, after, created_at)
     SELECT gen_random_uuid(), 'operator', 'project.created', 'project', jsonb_build_object('n', n, 'note', 'a "quoted"\nline'), now()
       FROM generate_series(1, 200) n`,
  );
  expect(keys).toBeDefined();
  const [root] = await db.query<{ value: string }>(`SELECT value FROM instance_secrets WHERE name = 'root'`);
  return root!.value;
}

export async function contents(db: Database): Promise<unknown[]> {
  return db.query(
    `SELECT (SELECT count(*)::int FROM projects) AS projects,
            (SELECT string_agg(name, ',' ORDER BY name) FROM projects) AS names,
            (SELECT string_agg(after::text, ',' ORDER BY after->>'n') FROM audit_log) AS audit`,
  );
}

/** The tables of a database's public schema. */
export async function tablesOf(open: () => Promise<Database>): Promise<string[]> {
  const db = await open();
  try {
    return (
      await db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`,
      )
    ).map((t) => t.name);
  } finally {
    await db.close();
  }
}
