import { createHash } from 'node:crypto';
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

/** The sha256 of a migration's text, as `migrations.sha256` and `schema_migrations.checksum` hold it. */
export function migrationChecksum(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export type MigrateOptions = {
  /** Stops after this file (a test builds a database as an earlier release left it). */
  until?: string;
  /** Told which file is being applied, then how long it took. */
  progress?: (step: { file: string; index: number; total: number; seconds?: number }) => void;
};

/**
 * Applies every `migrations/*.sql` not yet recorded in `schema_migrations`, in order, all in one
 * transaction under an advisory lock: either every pending file applies or none does, and of several
 * processes starting at once one migrates while the others wait, then find nothing left to do.
 *
 * Each applied file's sha256 is recorded beside its name. Migrations are append-only: a file whose text
 * differs from what a database applied is refused before anything runs (a database migrated before
 * checksums were kept has them filled in from the files).
 */
export async function migrate(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  const all = migrationFiles();
  const files = options.until ? all.slice(0, all.indexOf(options.until) + 1) : all;
  if (options.until && !all.includes(options.until)) throw new Error(`no migration ${options.until}`);
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    await tx.query('ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text');
    const done = new Map(
      (
        await tx.query<{ name: string; checksum: string | null }>(
          'SELECT name, checksum FROM schema_migrations',
        )
      ).map((row) => [row.name, row.checksum]),
    );
    for (const file of files) {
      const former = FORMER_NAMES[file];
      const name = done.has(file) ? file : former && done.has(former) ? former : null;
      if (name === null) continue;
      const checksum = migrationChecksum(readFileSync(DIR + file, 'utf8'));
      const recorded = done.get(name);
      if (recorded && recorded !== checksum)
        throw new Error(
          `migration ${file} differs from the one this database applied (sha256 ${recorded}, now ${checksum}): ` +
            'applied migrations must not change; put the change in a new migration file',
        );
      if (name !== file || !recorded)
        await tx.query('UPDATE schema_migrations SET name = $2, checksum = $3 WHERE name = $1', [
          name,
          file,
          checksum,
        ]);
    }
    const pending = files.filter(
      (file) => !done.has(file) && !(FORMER_NAMES[file] && done.has(FORMER_NAMES[file]!)),
    );
    for (const [index, file] of pending.entries()) {
      const text = readFileSync(DIR + file, 'utf8');
      const started = performance.now();
      options.progress?.({ file, index, total: pending.length });
      await tx.exec(text);
      await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
        file,
        migrationChecksum(text),
      ]);
      options.progress?.({
        file,
        index,
        total: pending.length,
        seconds: (performance.now() - started) / 1000,
      });
      applied.push(file);
    }
  });
  return applied;
}

/**
 * Progress of an upgrade on `out`: on a terminal one line rewritten in place (the file being applied, then
 * its time); elsewhere (a log) one plain line per file once it is applied, with its time and the total.
 */
export function printMigrationProgress(
  out: Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean } = process.stderr,
): NonNullable<MigrateOptions['progress']> {
  const started = performance.now();
  return ({ file, index, total, seconds }) => {
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    const position = `${index + 1}/${total}`;
    if (out.isTTY) {
      const done = seconds === undefined ? '' : ` ${seconds.toFixed(1)} s`;
      out.write(`\r\x1b[Kmigrating ${position} ${file}${done} (${elapsed} s elapsed)`);
      if (seconds !== undefined && index + 1 === total) out.write('\n');
    } else if (seconds !== undefined) {
      out.write(`migrated ${position} ${file} in ${seconds.toFixed(1)} s (${elapsed} s elapsed)\n`);
    }
  };
}
