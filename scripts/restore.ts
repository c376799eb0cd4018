/**
 * `npm run restore -- FILE`: restores a copy made by `npm run backup` into the configured database
 * (DATABASE_URL, or the embedded database in PONTE_DATA_DIR), which must be empty (exit code 2 when it is
 * not). The file's format is told by its first bytes (README, "Backup and restore"):
 *
 * - A `pg_dump` custom-format archive ("PGDMP"): PostgreSQL only (onto the embedded database it is refused,
 *   exit code 1: take a `--portable` copy for that). The archive is read first (`pg_restore --list`, and
 *   the schema version its `schema_migrations` rows carry: a copy of a newer release than this one is
 *   refused); then `pg_restore --single-transaction --exit-on-error --no-owner --no-privileges` restores it,
 *   so a cut or damaged archive restores nothing (exit code 1); then the current migrations run, so an
 *   older copy migrates forward (`src/db/backup/pg-archive.ts`).
 * - The portable format (`src/db/backup/format.ts`): the file is checked whole first, streaming: a file
 *   without its manifest (cut short) or whose checksum differs (changed or corrupt) is refused with exit
 *   code 1 and nothing is written. The rows are then streamed from the file (`src/db/backup/load.ts`), so
 *   memory stays bounded whatever its size.
 *
 * `--instance-secret SECRETFILE`: the instance's generated root secret, kept apart from the copy (the
 * `value` of `instance_secrets`, as `npm run backup -- --instance-secret SECRETFILE` wrote it), is put back
 * so that what the copy holds sealed opens again. Not needed when PONTE_INSTANCE_SECRET is configured.
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { BadBackupFile, checkBackupFile } from '../src/db/backup/file.ts';
import { loadBackup, refuseNonEmpty, restoreInstanceSecret, TargetNotEmpty } from '../src/db/backup/load.ts';
import {
  ArchiveFailed,
  archiveSchemaVersion,
  archiveTables,
  backupFileKind,
  knownSchemaVersion,
  restoreArchive,
} from '../src/db/backup/pg-archive.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { migrate, printMigrationProgress } from '../src/db/migrate.ts';
import { progressLine } from '../src/lib/progress.ts';

function refuse(message: string, code: number): never {
  process.stderr.write(`restore refused: ${message}\n`);
  process.exit(code);
}

const args = process.argv.slice(2);
const at = args.indexOf('--instance-secret');
const secretFile = at >= 0 ? args.splice(at, 2)[1] : undefined;
const file = args[0];
if (!file || (at >= 0 && !secretFile))
  refuse('usage: npm run restore -- FILE [--instance-secret SECRETFILE]', 2);
const secret = secretFile ? readSecret(secretFile) : undefined;

const config = loadConfig();
const kind = backupFileKind(file);
if (kind === 'plain-sql')
  refuse(
    `${file} is a plain SQL dump; npm run restore reads a pg_dump custom-format archive (pg_dump --format=custom) or a portable copy`,
    1,
  );
if (kind === 'archive') {
  await restoreArchiveFile(file, config.databaseUrl);
  process.exit(0);
}

const checked = await checkBackupFile(file).catch((error: unknown) => {
  if (error instanceof BadBackupFile) refuse(error.message, 1);
  throw error;
});
const { manifest } = checked;

const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
try {
  const progress = progressLine(process.stderr, 'restoring', 'rows');
  const applied = await loadBackup(db, file, checked, progress.update);
  progress.finish(`${manifest.rows} rows`);
  if (secret) await restoreInstanceSecret(db, secret, new Date());
  process.stdout.write(
    `restored ${file}: schema ${manifest.schemaVersion}, ${manifest.rows} rows` +
      (applied.length ? `; migrated forward through ${applied.at(-1)}` : '') +
      '\n',
  );
} catch (error) {
  if (!(error instanceof TargetNotEmpty)) throw error;
  process.exitCode = 2;
  process.stderr.write(`restore refused: ${error.message}\n`);
} finally {
  await db.close();
}

/** A pg_dump custom-format archive, onto PostgreSQL only (see the top of this file). */
async function restoreArchiveFile(file: string, databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl)
    refuse(
      `${file} is a pg_dump custom-format archive (a copy of a PostgreSQL database), which restores only onto ` +
        'PostgreSQL (set DATABASE_URL); to move a PostgreSQL database to the embedded one, take a portable copy: ' +
        'DATABASE_URL=postgres://... npm run backup -- --portable FILE',
      1,
    );
  let tables: number;
  let schemaVersion: string;
  try {
    tables = await archiveTables(file);
    schemaVersion = await archiveSchemaVersion(file);
  } catch (error) {
    if (error instanceof ArchiveFailed) refuse(error.message, 1);
    throw error;
  }
  if (!knownSchemaVersion(schemaVersion))
    refuse(
      `${file} was taken at schema ${schemaVersion}, of a newer Ponte than this one: restore it with that release or a later one`,
      1,
    );
  const db = await connectDatabase({ databaseUrl, dataDir: '', poolSize: 1 });
  try {
    await refuseNonEmpty(db);
    const progress = progressLine(process.stderr, 'restoring (pg_restore)', 'tables');
    await restoreArchive(databaseUrl, file, (done) => progress.update(done, Math.max(done, tables)));
    progress.finish(`${tables} tables`);
    if (secret) await restoreInstanceSecret(db, secret, new Date());
    const applied = await migrate(db, { progress: printMigrationProgress(process.stderr) });
    process.stdout.write(
      `restored ${file} (pg_dump custom format): schema ${schemaVersion}, ${tables} tables` +
        (applied.length ? `; migrated forward through ${applied.at(-1)}` : '') +
        '\n',
    );
  } catch (error) {
    if (error instanceof TargetNotEmpty) refuse(error.message, 2);
    if (error instanceof ArchiveFailed) refuse(error.message, 1);
    throw error;
  } finally {
    await db.close();
  }
}

function readSecret(path: string): string {
  let value: string;
  try {
    value = readFileSync(path, 'utf8').trim();
  } catch (error) {
    refuse(`cannot read ${path}: ${(error as Error).message}`, 1);
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(value))
    refuse(`${path} does not hold an instance secret (43 base64url characters)`, 1);
  return value;
}
