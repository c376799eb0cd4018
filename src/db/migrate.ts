import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './types.ts';

const DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_ID = 7_270_001; // advisory lock key: only one process migrates at a time

/** A migration file: a version (three digits, and a letter where one number holds several files), a name. */
const MIGRATION_FILE = /^(\d{3}[a-z]?)_[a-z0-9_]+\.sql$/;

/**
 * Files applied under an earlier name: a database that recorded the old name has applied the file, and
 * its record is renamed. (Two files once shared the number 002; they now carry 002a and 002b, in the
 * order they were always applied.)
 */
export const FORMER_NAMES: Readonly<Record<string, string>> = {
  '002a_compliance.sql': '002_compliance.sql',
  '002b_limit_requests.sql': '002_limit_requests.sql',
};

/** The migration files in the order they apply; refuses two files with one version. */
export function migrationFiles(names: readonly string[] = readdirSync(DIR)): string[] {
  const files = names.filter((name) => MIGRATION_FILE.test(name)).sort();
  const versions = new Map<string, string>();
  for (const file of files) {
    const version = MIGRATION_FILE.exec(file)![1]!;
    const other = versions.get(version);
    if (other) throw new Error(`migrations ${other} and ${file} share the version ${version}`);
    versions.set(version, file);
  }
  return files;
}

/**
 * Applies every `migrations/*.sql` not yet recorded in `schema_migrations`, in order, all in one
 * transaction under an advisory lock: either every pending file applies or none does, and of several
 * processes starting at once one migrates while the others wait, then find nothing left to do.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = migrationFiles();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const former = FORMER_NAMES[file];
      if (former && done.has(former)) {
        await tx.query('UPDATE schema_migrations SET name = $2 WHERE name = $1', [former, file]);
        continue;
      }
      await tx.exec(readFileSync(DIR + file, 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
  });
  return applied;
}
