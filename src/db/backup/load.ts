/**
 * Restores a checked backup file into an empty database: the schema is built by the migrations up to the
 * copy's schema version, the rows are loaded in one transaction (streamed from the file, a thousand at a
 * time), then the current migrations run, so an older copy migrates forward like the database it was.
 */
import { FORMER_NAMES, migrate } from '../migrate.ts';
import type { Database, Transaction } from '../types.ts';
import type { CheckedBackup } from './file.ts';
import { backupLines } from './file.ts';
import { quoteIdentifier as quote } from './format.ts';

/** The target database already has tables: restore writes only into an empty one. */
export class TargetNotEmpty extends Error {}

const BATCH = 1000;

/** Throws TargetNotEmpty when the database has a table: both formats restore only into an empty one. */
export async function refuseNonEmpty(db: Database): Promise<void> {
  const present = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') LIMIT 1`,
  );
  if (present.length)
    throw new TargetNotEmpty(
      'the target database is not empty (it has tables); restore only into an empty database',
    );
}

/** Returns the migrations applied after the rows were in (empty when the copy was current). */
export async function loadBackup(
  db: Database,
  path: string,
  checked: CheckedBackup,
  onProgress: (rows: number, total: number) => void = () => {},
): Promise<string[]> {
  await refuseNonEmpty(db);
  const { manifest } = checked;
  const formerToCurrent = new Map(Object.entries(FORMER_NAMES).map(([now, was]) => [was, now]));
  await migrate(db, { until: formerToCurrent.get(manifest.schemaVersion) ?? manifest.schemaVersion });
  await db.transaction(async (tx) => {
    // the copy is consistent as a whole; rows go in table by table, so foreign keys and triggers wait
    await tx.query(`SET LOCAL session_replication_role = replica`);
    const tables = await tx.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> 'schema_migrations'`,
    );
    // rows the migrations seeded are in the copy too, as the copy had them
    if (tables.length) await tx.query(`TRUNCATE ${tables.map((t) => quote(t.name)).join(', ')}`);
    await loadRows(tx, backupLines(path, checked), manifest.rows, onProgress);
  });
  return migrate(db);
}

async function loadRows(
  tx: Transaction,
  lines: AsyncIterable<string>,
  total: number,
  onProgress: (rows: number, total: number) => void,
): Promise<void> {
  let table: string | null = null;
  let columns = '';
  let batch: string[] = [];
  let done = 0;
  const insert = async () => {
    if (!table || !batch.length) return;
    await tx.query(
      `INSERT INTO ${quote(table)} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${quote(table)}, $1::json)`,
      [`[${batch.join(',')}]`],
    );
    done += batch.length;
    batch = [];
    onProgress(done, total);
  };
  for await (const text of lines) {
    if (text.startsWith('#{"table":')) {
      await insert();
      const header = JSON.parse(text.slice(1)) as { table: string; columns: string[] };
      table = header.table;
      columns = header.columns.map(quote).join(', ');
    } else if (text.startsWith('#{"sequence":')) {
      await insert();
      table = null;
      const s = JSON.parse(text.slice(1)) as { sequence: string; value: string };
      await tx.query('SELECT setval($1::regclass, $2::bigint)', [quote(s.sequence), s.value]);
    } else {
      batch.push(text);
      if (batch.length >= BATCH) await insert();
    }
  }
  await insert();
}

/** Puts back the generated root secret kept apart from the copy (`instance_secrets`, left out of it). */
export async function restoreInstanceSecret(db: Database, value: string, at: Date): Promise<void> {
  await db.query(`INSERT INTO instance_secrets (name, value, created_at) VALUES ('root', $1, $2)`, [
    value,
    at,
  ]);
}

/** The generated root secret, to be kept apart from the copies; undefined when none was generated. */
export async function readInstanceSecret(db: Database): Promise<string | undefined> {
  const [row] = await db.query<{ value: string }>(`SELECT value FROM instance_secrets WHERE name = 'root'`);
  return row?.value;
}
