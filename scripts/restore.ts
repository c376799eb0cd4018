/**
 * `npm run restore -- FILE`: restores a copy made by `npm run backup` into the configured database
 * (DATABASE_URL, or the embedded database in PONTE_DATA_DIR), which must be empty (exit code 2 when it is
 * not). The file is checked whole first: a file without its manifest (cut short) or whose checksum
 * differs (changed or corrupt) is refused with exit code 1 and nothing is written.
 *
 * The schema is built by the migrations up to the copy's schema version, the rows are loaded in one
 * transaction, then the current migrations run: an older copy migrates forward like the database it was.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { FORMER_NAMES, migrate } from '../src/db/migrate.ts';
import type { Transaction } from '../src/db/types.ts';
import { progressLine } from '../src/lib/progress.ts';
import { BACKUP_FORMAT, type Manifest } from './backup-format.ts';

function refuse(message: string, code: number): never {
  process.stderr.write(`restore refused: ${message}\n`);
  process.exit(code);
}

const file = process.argv[2];
if (!file) refuse('usage: npm run restore -- FILE', 2);

const { body, manifest } = readChecked(file);

const config = loadConfig();
const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
try {
  const present = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') LIMIT 1`,
  );
  if (present.length) {
    await db.close();
    refuse('the target database is not empty (it has tables); restore only into an empty database', 2);
  }
  const formerToCurrent = new Map(Object.entries(FORMER_NAMES).map(([now, was]) => [was, now]));
  await migrate(db, { until: formerToCurrent.get(manifest.schemaVersion) ?? manifest.schemaVersion });
  const progress = progressLine(process.stderr, 'restoring', 'rows');
  await db.transaction(async (tx) => {
    // the copy is consistent as a whole; rows go in table by table, so foreign keys and triggers wait
    await tx.query(`SET LOCAL session_replication_role = replica`);
    const tables = await tx.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> 'schema_migrations'`,
    );
    // rows the migrations seeded are in the copy too, as the copy had them
    if (tables.length) await tx.query(`TRUNCATE ${tables.map((t) => quote(t.name)).join(', ')}`);
    await load(tx, body, manifest.rows, progress.update);
  });
  progress.finish(`${manifest.rows} rows`);
  const applied = await migrate(db);
  process.stdout.write(
    `restored ${file}: schema ${manifest.schemaVersion}, ${manifest.rows} rows` +
      (applied.length ? `; migrated forward through ${applied.at(-1)}` : '') +
      '\n',
  );
} finally {
  await db.close();
}

function readChecked(path: string): { body: string; manifest: Manifest } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    refuse(`cannot read ${path}: ${(error as Error).message}`, 1);
  }
  const end = text.lastIndexOf('\n', text.length - 2);
  const last = text.slice(end + 1).trim();
  let manifest: Manifest | undefined;
  try {
    manifest = (JSON.parse(last) as { manifest?: Manifest }).manifest;
  } catch {
    manifest = undefined;
  }
  if (!text.endsWith('\n') || !manifest)
    refuse(`${path} has no manifest: the backup is incomplete (cut short) or not a Ponte backup`, 1);
  if (manifest.format !== BACKUP_FORMAT)
    refuse(`${path} is in format ${manifest.format}, not ${BACKUP_FORMAT}`, 1);
  const body = text.slice(0, end + 1);
  const sha256 = createHash('sha256').update(body, 'utf8').digest('hex');
  if (sha256 !== manifest.sha256) refuse(`${path} is corrupt: its checksum does not match its manifest`, 1);
  return { body, manifest };
}

async function load(
  tx: Transaction,
  body: string,
  total: number,
  update: (done: number, total: number) => void,
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
    update(done, total);
  };
  for (const text of body.split('\n')) {
    if (!text) continue;
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
      if (batch.length >= 1000) await insert();
    }
  }
  await insert();
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
