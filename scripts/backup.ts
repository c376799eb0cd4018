/**
 * `npm run backup -- FILE`: a consistent copy of the configured database (DATABASE_URL, or the embedded
 * database in PONTE_DATA_DIR) in the format of `backup-format.ts`.
 *
 * PostgreSQL: taken while Ponte runs, every table read in one REPEATABLE READ, READ ONLY transaction, so
 * the copy is the database as of one instant, whatever is being written meanwhile.
 * Embedded: PGlite's data directory can be opened by one process only, so this command opens it directly
 * and therefore needs Ponte stopped (it fails to open a directory a running Ponte holds).
 *
 * The file is written as FILE.partial, fsynced, then renamed to FILE: a backup killed half way leaves at
 * most FILE.partial, which has no manifest and which restore refuses.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import type { Queryable } from '../src/db/types.ts';
import { progressLine } from '../src/lib/progress.ts';
import { BACKUP_FORMAT, type Manifest, NOT_COPIED } from './backup-format.ts';

/** Why a backup did not start: said in a line, not a stack trace. */
class NothingToBackUp extends Error {}

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run backup -- FILE\n');
  process.exit(2);
}

const config = loadConfig();
const db = await connectDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: 1,
});
const PAGE = 5000;
const partial = `${file}.partial`;
const fd = openSync(partial, 'w', 0o600);
const hash = createHash('sha256');
let pending: string[] = [];
let pendingBytes = 0;
const flush = () => {
  if (!pending.length) return;
  const chunk = Buffer.from(pending.join(''), 'utf8');
  hash.update(chunk);
  writeSync(fd, chunk);
  pending = [];
  pendingBytes = 0;
};
const line = (text: string) => {
  pending.push(`${text}\n`);
  pendingBytes += text.length;
  if (pendingBytes > 1 << 20) flush();
};

try {
  const manifest = await db.transaction(
    async (tx) => {
      await tx.query('SET TRANSACTION READ ONLY');
      const schemaVersion = await lastMigration(tx);
      const tables = (
        await tx.query<{ name: string; rows: string }>(
          `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
        )
      ).filter((t) => !NOT_COPIED.has(t.name));
      const progress = progressLine(process.stderr, 'backing up', 'tables');
      let rows = 0;
      for (const [index, { name }] of tables.entries()) {
        const columns = (
          await tx.query<{ column_name: string }>(
            `SELECT column_name FROM information_schema.columns
              WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER'
              ORDER BY ordinal_position`,
            [name],
          )
        ).map((c) => c.column_name);
        line(`#${JSON.stringify({ table: name, columns })}`);
        const list = columns.map((c) => `t.${quote(c)}`).join(', ');
        // pages of rows in physical order (a TID range scan), so a large table never sits whole in memory
        let after = '(0,0)';
        for (;;) {
          const page = await tx.query<{ at: string; row: string }>(
            `SELECT t.ctid::text AS at, (SELECT row_to_json(r) FROM (SELECT ${list}) r)::text AS row
               FROM ${quote(name)} t WHERE t.ctid > $1::tid ORDER BY t.ctid LIMIT ${PAGE}`,
            [after],
          );
          for (const { row } of page) line(row);
          rows += page.length;
          if (page.length < PAGE) break;
          after = page.at(-1)!.at;
        }
        progress.update(index + 1, tables.length);
      }
      const sequences = await tx.query<{ name: string; value: string | null }>(
        `SELECT sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public'`,
      );
      for (const s of sequences)
        if (s.value !== null) line(`#${JSON.stringify({ sequence: s.name, value: s.value })}`);
      progress.finish(`${tables.length} tables, ${rows} rows`);
      return { schemaVersion, rows };
    },
    { isolation: 'repeatable read' },
  );
  flush();
  const done: Manifest = {
    format: BACKUP_FORMAT,
    schemaVersion: manifest.schemaVersion,
    createdAt: new Date().toISOString(),
    source: db.kind === 'pglite' ? 'pglite' : 'postgres',
    sha256: hash.digest('hex'),
    rows: manifest.rows,
  };
  writeSync(fd, `${JSON.stringify({ manifest: done })}\n`);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(partial, file);
  process.stdout.write(`backup written to ${file}: schema ${done.schemaVersion}, ${done.rows} rows\n`);
} catch (error) {
  if (!(error instanceof NothingToBackUp)) throw error;
  closeSync(fd);
  rmSync(partial, { force: true });
  process.stderr.write(`backup refused, nothing written: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}

async function lastMigration(tx: Queryable): Promise<string> {
  const [exists] = await tx.query<{ found: boolean }>(
    "SELECT to_regclass('public.schema_migrations') IS NOT NULL AS found",
  );
  const rows = exists?.found
    ? await tx.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1')
    : [];
  if (!rows[0])
    throw new NothingToBackUp('this database holds no Ponte schema (has Ponte ever started on it?)');
  return rows[0].name;
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
