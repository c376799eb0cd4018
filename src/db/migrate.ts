import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './types.ts';

const DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_ID = 7_270_001; // advisory lock key: only one process migrates at a time

/** Applies every `migrations/NNN_name.sql` not yet recorded, in order, each in its own transaction. */
export async function migrate(db: Database): Promise<string[]> {
  const files = readdirSync(DIR)
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
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
      await tx.exec(readFileSync(DIR + file, 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
  });
  return applied;
}
